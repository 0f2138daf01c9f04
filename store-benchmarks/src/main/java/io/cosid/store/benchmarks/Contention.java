package io.cosid.store.benchmarks;

import io.cosid.store.tck.net.DelayingProxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The contention scenario of the side-by-side harness: many clients on one key, ours against
 * DistributedAtomicLong, a plain compare-and-set and a bare hand-off, at equal and unequal
 * distances, and where the own-sessions acquires went.
 */
final class Contention {

    private final SideBySide h;
    private final ContentionRuns runs;

    Contention(SideBySide h) {
        this.h = h;
        this.runs = new ContentionRuns(h);
    }

    void contention() {
        Table table =
                new Table(
                        "Contention on one key: successful range acquires per second (step "
                                + SideBySide.STEP
                                + ")",
                        "clients",
                        "contender",
                        "acquires/s",
                        "gave up",
                        "requests/acquire",
                        "p99 us",
                        "min share",
                        "vs reference",
                        "vs best DAL");
        List<Integer> clients = h.settings().clients();
        // The reference for every compare-and-set counter across sessions whose clients each have
        // one acquire in flight: a success at version v+1 needs a write sent after its writer
        // learned v, so successes are about one conditional-write round trip apart, however many
        // clients contend. Measured before, between and after the rows; the median is used.
        List<Double> references = new ArrayList<>();
        references.add(reference());
        List<ContentionRuns.Result[]> rows = new ArrayList<>();
        for (int i = 0; i < clients.size(); i++) {
            rows.add(row(clients.get(i)));
            if (i == clients.size() / 2) {
                references.add(reference());
            }
        }
        references.add(reference());
        double reference = SideBySide.median(references);
        for (int i = 0; i < clients.size(); i++) {
            tableRows(table, clients.get(i), rows.get(i), reference);
        }
        table.row(
                1,
                "(reference: one client's versioned setData rate, median of "
                        + references.stream()
                                .map(v -> String.format(Locale.ROOT, "%,.0f", v))
                                .toList()
                        + ")",
                reference,
                0,
                1.0,
                Double.NaN,
                1.0,
                1.0,
                Double.NaN);
        h.publish(table);
        chart(clients, rows, references, reference);
        seatTable();
        unequalDistances(reference);
    }

    /** The contenders' runs at {@code n} clients, in the order of {@link #NAMES}. */
    private ContentionRuns.Result[] row(int n) {
        ContentionRuns.Result d =
                runs.contend(Contender.Kind.DAL, n, false, Contender.Policy.DEFAULT);
        ContentionRuns.Result f = runs.contend(Contender.Kind.DAL, n, false, Contender.Policy.FAST);
        ContentionRuns.Result o =
                runs.contend(Contender.Kind.OURS, n, false, Contender.Policy.DEFAULT);
        ContentionRuns.Result sh =
                runs.contend(Contender.Kind.OURS, n, true, Contender.Policy.DEFAULT);
        ContentionRuns.Result busy = runs.contendThreaded(n, ContentionRuns.THREADS_PER_STORE);
        ContentionRuns.Result cas =
                runs.contend(Contender.Kind.DAL, n, false, Contender.Policy.NONE);
        ContentionRuns.Result handoff = n > 1 ? handOff(n) : null;
        return handoff == null
                ? new ContentionRuns.Result[] {d, f, o, sh, busy, cas}
                : new ContentionRuns.Result[] {d, f, o, sh, busy, cas, handoff};
    }

    /** The rows of one client count, as {@link #row} ran them. */
    private static final String[] NAMES = {
        "DistributedAtomicLong, default policy",
        "DistributedAtomicLong, fast policy",
        "cosid-store, own sessions",
        "cosid-store, one shared store",
        "cosid-store, own sessions, "
                + ContentionRuns.THREADS_PER_STORE
                + " threads each (min share: per thread)",
        "plain compare-and-set: DistributedAtomicLong retrying at once (the issue 33"
                + " prototype's reference)",
        "bare hand-off: turns by version, no store (at 2 clients the bound of turns; gave"
                + " up: a turn not come in 1 s)"
    };

    private void tableRows(Table table, int n, ContentionRuns.Result[] r, double reference) {
        double bestDal = Math.max(r[0].perSecond(), r[1].perSecond());
        for (int k = 0; k < r.length; k++) {
            table.row(
                    n,
                    NAMES[k],
                    r[k].perSecond(),
                    r[k].gaveUp(),
                    r[k].requests(),
                    r[k].p99(),
                    r[k].minShare(),
                    r[k].perSecond() / reference,
                    r[k].perSecond() / bestDal);
        }
        if (n >= 2) {
            verdicts(n, r[2], r[5], bestDal);
        }
    }

    /** The targets of own sessions at {@code n} clients. */
    private void verdicts(
            int n, ContentionRuns.Result o, ContentionRuns.Result cas, double bestDal) {
        double target = n >= 8 ? 1.5 : 1.0;
        h.verdict(
                String.format(
                        Locale.ROOT,
                        "%d clients, own sessions: ours / DistributedAtomicLong with its"
                                + " better policy (at least %.1fx)",
                        n,
                        target),
                o.perSecond() / bestDal,
                "x",
                o.perSecond() >= target * bestDal);
        h.addVerdict(
                String.format(
                        Locale.ROOT,
                        "%-4s %d clients, own sessions: ours / plain compare-and-set"
                                + " retrying at once (issue 33's prototype of combining"
                                + " measured 0.70, 1.07, 1.15, 2.27 at 2, 4, 8, 16): %.2fx",
                        "INFO",
                        n,
                        o.perSecond() / cas.perSecond()));
        h.verdict(
                n + " clients, own sessions: requests per acquire (at most 5)",
                o.requests(),
                "",
                o.requests() <= 5);
        double fewest = fewestOfMean(o);
        h.verdict(
                n
                        + " clients, own sessions: the fewest acquires any client made"
                        + " over the run / the mean (a figure; at least 0.5)",
                fewest,
                "",
                fewest >= 0.5);
    }

    private void chart(
            List<Integer> clients,
            List<ContentionRuns.Result[]> rows,
            List<Double> references,
            double reference) {
        double[] x = Chart.xs(clients);
        Chart chart =
                new Chart(
                        "Range acquires on one contended key (ZooKeeper "
                                + h.settings().version()
                                + ")",
                        "contending clients",
                        "successful acquires per second");
        chart.series("cosid-store, each client its own store and session", x, column(rows, 2));
        chart.series("cosid-store, clients share one store (coalesced)", x, column(rows, 3));
        chart.series(
                "Curator DistributedAtomicLong, own sessions, fast retry policy",
                x,
                column(rows, 1));
        chart.series(
                "Curator DistributedAtomicLong, own sessions, default retry policy",
                x,
                column(rows, 0));
        double[] flat = new double[clients.size()];
        Arrays.fill(flat, reference);
        chart.reference(
                "reference: one client's sequential versioned setData rate (median of "
                        + references.size()
                        + ")",
                x,
                flat);
        chart.write(h.outDir().resolve("throughput-vs-clients.png"));
    }

    private static double[] column(List<ContentionRuns.Result[]> rows, int k) {
        return rows.stream().mapToDouble(r -> r[k].perSecond()).toArray();
    }

    /**
     * The bare hand-off between {@code clients} sessions ({@link Contender.BareHandOff}): what a
     * scheme of turns can reach on this machine at best (at 2 clients; with more, its writers wake
     * on every write).
     */
    ContentionRuns.Result handOff(int clients) {
        List<Contender> writers;
        try {
            writers =
                    Contender.BareHandOff.open(
                            h.connectString(),
                            "handoff-" + clients,
                            Contender.Policy.DEFAULT,
                            clients);
        } catch (Exception e) {
            throw new IllegalStateException("cannot set up the bare hand-off", e);
        }
        try {
            return runs.runMeasured(writers, clients + " x bare hand-off");
        } finally {
            writers.forEach(Contender::closeQuietly);
        }
    }

    /** One client's sequential versioned setData rate, measured now. */
    double reference() {
        return runs.contend(Contender.Kind.BARE_SET_DATA, 1, false, Contender.Policy.DEFAULT)
                .perSecond();
    }

    /**
     * Clients at unequal distances on one key: some reach the server through a proxy that adds
     * one-way latency, as a client in another rack or zone would.
     */
    void unequalDistances(double reference) {
        Table table =
                new Table(
                        "Unequal distances: one key, some clients further away (a proxy adds"
                                + " one-way latency)",
                        "clients",
                        "added one-way ms",
                        "contender",
                        "acquires/s",
                        "gave up",
                        "near acquires/s",
                        "near alone",
                        "near with far / alone",
                        "far acquires",
                        "far p99 us",
                        "far max us",
                        "far max / far round trip");
        int[][] mixes = {{1, 1}, {2, 2}};
        for (int delay : h.settings().distances()) {
            try (DelayingProxy proxy =
                    new DelayingProxy(h.clientPort(), Duration.ofMillis(delay))) {
                for (int[] mix : mixes) {
                    int near = mix[0];
                    int far = mix[1];
                    for (Contender.Kind kind : List.of(Contender.Kind.OURS, Contender.Kind.DAL)) {
                        distanceRow(table, kind, near, far, delay, proxy, reference);
                    }
                }
            }
        }
        h.publish(table);
    }

    /** One contender's row at one mix of near and far clients, and its verdicts. */
    private void distanceRow(
            Table table,
            Contender.Kind kind,
            int near,
            int far,
            int delay,
            DelayingProxy proxy,
            double reference) {
        // a far client's round trip: the added delay both ways and one uncontended write
        double farRoundTrip = 2_000.0 * delay + 1e6 / reference;
        ContentionRuns.Result alone = runs.distanceRun(kind, near, 0, delay, proxy);
        ContentionRuns.Result r = runs.distanceRun(kind, near, far, delay, proxy);
        Latencies farLatencies = new Latencies();
        long farAcquires = 0;
        for (ContentionRuns.ClientRun c : r.clients().subList(near, near + far)) {
            c.latencies().forEach(farLatencies::add);
            farAcquires += c.latencies().count();
        }
        double nearRate = 0;
        for (ContentionRuns.ClientRun c : r.clients().subList(0, near)) {
            nearRate += c.latencies().count() / h.seconds();
        }
        double nearRatio = nearRate / alone.perSecond();
        table.row(
                near + " near + " + far + " far",
                delay,
                kind == Contender.Kind.OURS
                        ? "cosid-store, own sessions"
                        : "DistributedAtomicLong, fast policy",
                r.perSecond(),
                r.gaveUp(),
                nearRate,
                alone.perSecond(),
                nearRatio,
                farAcquires,
                farLatencies.count() == 0 ? Double.NaN : farLatencies.p99Micros(),
                farLatencies.maxMicros(),
                farLatencies.maxMicros() / farRoundTrip);
        if (kind == Contender.Kind.OURS) {
            String mixed = near + " near + " + far + " clients " + delay + " ms further";
            h.verdict(
                    mixed + ": the near clients' rate / their rate alone (at" + " least 0.8)",
                    nearRatio,
                    "x",
                    nearRatio >= 0.8);
            h.addVerdict(
                    String.format(
                            Locale.ROOT,
                            "%-4s %s: every far client served (%d acquires, none"
                                    + " given up: %s), longest wait %.1f of its round"
                                    + " trips",
                            "INFO",
                            mixed,
                            farAcquires,
                            r.gaveUp() == 0,
                            farLatencies.maxMicros() / farRoundTrip));
        }
    }

    /** The fewest acquires any client of a run made, over the mean of all of them. */
    static double fewestOfMean(ContentionRuns.Result r) {
        long fewest = Long.MAX_VALUE;
        long total = 0;
        for (ContentionRuns.ClientRun c : r.clients()) {
            fewest = Math.min(fewest, c.latencies().count());
            total += c.latencies().count();
        }
        return total == 0 ? Double.NaN : fewest / (total / (double) r.clients().size());
    }

    /**
     * Where the own-sessions rows' acquires went, as their stores counted them (warm-up included):
     * per acquire, and seats per write that served any.
     */
    void seatTable() {
        Table table =
                new Table(
                        "Own sessions: what an acquire did, as the stores counted it (warm-up"
                                + " included)",
                        "clients",
                        "acquires",
                        "served by another store",
                        "seats posted",
                        "reads",
                        "writes lost to a write",
                        "writes failed on the line",
                        "writes failed on a seat",
                        "waits before a read",
                        "seats per serving write");
        runs.seatCounts.forEach(
                (clients, c) -> {
                    double acquires = Maps.at(c, "LANDED") + Maps.at(c, "SERVED");
                    table.row(
                            clients,
                            (long) acquires,
                            Maps.at(c, "SERVED") / acquires,
                            Maps.at(c, "POSTS") / acquires,
                            Maps.at(c, "READS") / acquires,
                            Maps.at(c, "FAILED_ON_KEY") / acquires,
                            Maps.at(c, "FAILED_ON_LINE") / acquires,
                            Maps.at(c, "FAILED_ON_SEAT") / acquires,
                            Maps.at(c, "WAITS") / acquires,
                            Maps.at(c, "SERVING_WRITES") == 0
                                    ? Double.NaN
                                    : Maps.at(c, "SEATS_SERVED")
                                            / (double) Maps.at(c, "SERVING_WRITES"));
                });
        h.publish(table);
    }
}
