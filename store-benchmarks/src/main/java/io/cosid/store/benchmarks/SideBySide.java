package io.cosid.store.benchmarks;

import io.cosid.store.SlotLease;
import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.inmemory.InMemoryStores;
import io.cosid.store.zookeeper.ZooKeeperStores;
import io.cosid.store.zookeeper.harness.DelayingProxy;
import io.cosid.store.zookeeper.harness.ForkedEnsemble;
import io.cosid.store.zookeeper.harness.StoreFigures;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import org.apache.curator.framework.CuratorFramework;
import org.jspecify.annotations.Nullable;

/**
 * The side-by-side harness: ours, Curator's {@code DistributedAtomicLong} and a bare versioned
 * {@code setData}, in one run on one real ZooKeeper server that the harness starts, plus slot
 * leases, 1024 instances starting together, and the in-memory store. Prints one table per scenario
 * and writes {@code results.md} and {@code throughput-vs-clients.png} and {@code
 * instances-starting-together.png} to the output directory.
 *
 * <p>Arguments: {@code --seconds S} per measured run (default 5), {@code --warmup S} (default 2),
 * {@code --clients 1,2,4,8,16}, {@code --distances 1,2,5} (one-way milliseconds added for the
 * further clients), {@code --instances 1024}, {@code --held 1000} (slots held in the
 * crowded-namespace case), {@code --kills 10} (leader kills of the failover scenario), {@code --out
 * DIR}, {@code --version 3.9.5}, {@code --only
 * single,contention,slots,instances,failover,inmemory}. Every range handed out in a run is checked:
 * a duplicate ends the run with an exception.
 */
public final class SideBySide {

    private static final long STEP = 100;
    private static final Duration TTL = Duration.ofSeconds(30);

    /** What one run measures. */
    record Settings(
            Duration run,
            Duration warmup,
            List<Integer> clients,
            List<Integer> distances,
            int instances,
            int held,
            int kills,
            Path out,
            String version,
            Set<String> scenarios) {

        static final List<String> SCENARIOS =
                List.of(
                        "single",
                        "contention",
                        "slots",
                        "instances",
                        "cosid",
                        "failover",
                        "inmemory");

        static Settings parse(String... args) {
            Duration run = Duration.ofSeconds(5);
            Duration warmup = Duration.ofSeconds(2);
            List<Integer> clients = List.of(1, 2, 4, 8, 16);
            List<Integer> distances = List.of(1, 2, 5);
            int instances = 1024;
            int held = 1000;
            int kills = 10;
            Path out = Path.of("target", "benchmarks");
            String version = System.getProperty("cosid.zk.primary", "3.9.5");
            Set<String> scenarios = new LinkedHashSet<>(SCENARIOS);
            for (int i = 0; i < args.length; i += 2) { // each option takes one value
                String value = i + 1 < args.length ? args[i + 1] : null;
                switch (args[i]) {
                    case "--seconds" -> run = seconds(args[i], value);
                    case "--warmup" -> warmup = seconds(args[i], value);
                    case "--clients" -> clients = numbers(args[i], value);
                    case "--distances" -> distances = numbers(args[i], value);
                    case "--instances" -> instances = Integer.parseInt(required(args[i], value));
                    case "--held" -> held = Integer.parseInt(required(args[i], value));
                    case "--kills" -> kills = Integer.parseInt(required(args[i], value));
                    case "--out" -> out = Path.of(required(args[i], value));
                    case "--version" -> version = required(args[i], value);
                    case "--only" -> {
                        scenarios =
                                new LinkedHashSet<>(
                                        Arrays.asList(required(args[i], value).split(",", -1)));
                        if (!SCENARIOS.containsAll(scenarios)) {
                            throw new IllegalArgumentException(
                                    "--only takes some of " + SCENARIOS + ", not " + value);
                        }
                    }
                    default ->
                            throw new IllegalArgumentException(
                                    "unknown argument '"
                                            + args[i]
                                            + "'; known: --seconds, --warmup, --clients,"
                                            + " --distances, --instances, --held, --kills, --out,"
                                            + " --version,"
                                            + " --only");
                }
            }
            if (kills < 1) {
                throw new IllegalArgumentException("--kills must be at least 1, not " + kills);
            }
            if (held < 0 || held >= 1024 || instances < 1 || instances > 1024) {
                throw new IllegalArgumentException(
                        "--held must be 0..1023 and --instances 1..1024 (one 1024-slot"
                                + " namespace each)");
            }
            return new Settings(
                    run, warmup, clients, distances, instances, held, kills, out, version,
                    scenarios);
        }

        private static List<Integer> numbers(String name, @Nullable String value) {
            return Arrays.stream(required(name, value).split(",", -1))
                    .map(String::trim)
                    .map(Integer::valueOf)
                    .toList();
        }

        private static String required(String name, @Nullable String value) {
            if (value == null) {
                throw new IllegalArgumentException(name + " needs a value");
            }
            return value;
        }

        private static Duration seconds(String name, @Nullable String value) {
            return Duration.ofMillis(Math.round(Double.parseDouble(required(name, value)) * 1000));
        }
    }

    private final Settings settings;
    private final List<Table> tables = new ArrayList<>();
    private final List<String> verdicts = new ArrayList<>();

    /** The standalone server of the scenarios that share one, while they run. */
    private @Nullable ForkedEnsemble server;

    private @Nullable ServerCounters serverCounters;

    private SideBySide(Settings settings) {
        this.settings = settings;
    }

    private String connectString() {
        return Objects.requireNonNull(server, "no shared server is running").connectString();
    }

    private int clientPort() {
        return Objects.requireNonNull(server, "no shared server is running").clientPort(1);
    }

    private ServerCounters counters() {
        return Objects.requireNonNull(serverCounters, "no shared server is running");
    }

    /**
     * Runs the harness.
     *
     * @param args see the class comment
     */
    public static void main(String[] args) {
        run(Settings.parse(args));
    }

    static Path run(Settings settings) {
        SideBySide harness = new SideBySide(settings);
        try (ForkedEnsemble server = ForkedEnsemble.standalone(settings.version())) {
            harness.server = server;
            harness.serverCounters = new ServerCounters(server.clientPort(1));
            Set<String> only = settings.scenarios();
            if (only.contains("single")) {
                harness.singleClient();
            }
            if (only.contains("contention")) {
                harness.contention();
            }
            if (only.contains("slots")) {
                harness.slots();
            }
            if (only.contains("instances")) {
                harness.instancesStartingTogether();
            }
            if (only.contains("cosid")) {
                harness.cosIdSegments();
            }
        } finally {
            harness.server = null;
            harness.serverCounters = null;
        }
        if (settings.scenarios().contains("failover")) {
            harness.failover();
        }
        if (settings.scenarios().contains("inmemory")) {
            harness.inMemory();
        }
        return harness.write();
    }

    // ---- CosId's segment generator ----

    private void cosIdSegments() {
        try {
            CosIdSegments cosId =
                    new CosIdSegments(
                            connectString(), counters(), settings.warmup(), settings.run());
            List<Map<CosIdSegments.Kind, CosIdSegments.Run>> medians = cosId.measure();
            List<String> cosIdVerdicts = new ArrayList<>();
            publish(CosIdSegments.table(medians, cosIdVerdicts));
            publish(cosId.bursts());
            verdicts.addAll(cosIdVerdicts);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (Exception e) {
            throw new IllegalStateException("the CosId segment benchmark failed: " + e, e);
        }
    }

    // ---- one client, no contention ----

    private void singleClient() {
        Contender.Kind[] kinds = Contender.Kind.values();
        Map<Contender.Kind, Latencies> latencies = new EnumMap<>(Contender.Kind.class);
        Map<Contender.Kind, Long> requests = new EnumMap<>(Contender.Kind.class);
        Map<Contender.Kind, Contender> contenders = new EnumMap<>(Contender.Kind.class);
        try {
            for (Contender.Kind kind : kinds) {
                contenders.put(
                        kind,
                        Contender.open(
                                kind,
                                connectString(),
                                "single-" + kind.name().toLowerCase(Locale.ROOT),
                                Contender.Policy.DEFAULT));
                latencies.put(kind, new Latencies());
            }
            for (Contender c : contenders.values()) {
                loop(c, settings.warmup(), new Latencies());
            }
            // rounds in turn, so that drift of the machine or the server touches every contender
            // alike
            int rounds = 10;
            Duration slice = settings.run().dividedBy(rounds);
            for (int round = 0; round < rounds; round++) {
                for (Contender.Kind kind : kinds) {
                    long before = counters().received();
                    loop(Maps.at(contenders, kind), slice, Maps.at(latencies, kind));
                    requests.merge(kind, counters().since(before), Long::sum);
                }
            }
        } catch (Exception e) {
            throw new IllegalStateException("the one-client comparison failed", e);
        } finally {
            contenders.values().forEach(Contender::closeQuietly);
        }
        double bare = Maps.at(latencies, Contender.Kind.BARE_SET_DATA).medianMicros();
        Table table =
                new Table(
                        "Range acquire, one client, no contention (step "
                                + STEP
                                + "; 10 interleaved rounds)",
                        "contender",
                        "ops",
                        "median us",
                        "p99 us",
                        "ops/s",
                        "requests/op",
                        "median / bare setData");
        for (Contender.Kind kind : kinds) {
            Latencies l = Maps.at(latencies, kind);
            table.row(
                    kind.label,
                    l.count(),
                    l.medianMicros(),
                    l.p99Micros(),
                    l.throughput(),
                    requests.getOrDefault(kind, 0L) / (double) l.count(),
                    l.medianMicros() / bare);
        }
        publish(table);
        double ours = Maps.at(latencies, Contender.Kind.OURS).medianMicros();
        double dal = Maps.at(latencies, Contender.Kind.DAL).medianMicros();
        verdict(
                "one client: range acquire median / bare setData median (at most 1.1x)",
                ours / bare,
                "x",
                ours / bare <= 1.1);
        verdict(
                "one client: DistributedAtomicLong.add median / range acquire median (at least"
                        + " 1.5x)",
                dal / ours,
                "x",
                dal / ours >= 1.5);
        double async = Maps.at(latencies, Contender.Kind.BARE_SET_DATA_ASYNC).medianMicros();
        verdicts.add(
                String.format(
                        Locale.ROOT,
                        "%-4s %s: %.2fx",
                        "INFO",
                        "one client: asynchronous bare setData median / bare setData median (the"
                                + " event-thread hand-off the store's synchronous write avoids)",
                        async / bare));
    }

    /** Adds in a loop for a while, into the given latencies (only adds that succeeded count). */
    private static void loop(Contender c, Duration length, Latencies l) throws Exception {
        long start = System.nanoTime();
        long end = start + length.toNanos();
        long now = start;
        while (now < end) {
            long[] r = c.add(STEP);
            long after = System.nanoTime();
            if (r != null) {
                l.add(after - now);
            }
            now = after;
        }
        l.elapsed(l.elapsedNanos() + now - start);
    }

    // ---- contention on one key ----

    private void contention() {
        Table table =
                new Table(
                        "Contention on one key: successful range acquires per second (step "
                                + STEP
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
        List<Integer> clients = settings.clients();
        // The reference for every compare-and-set counter across sessions whose clients each have
        // one acquire in flight: a success at version v+1 needs a write sent after its writer
        // learned v, so successes are about one conditional-write round trip apart, however many
        // clients contend. Measured before, between and after the rows; the median is used.
        List<Double> references = new ArrayList<>();
        references.add(reference());
        double[] ours = new double[clients.size()];
        double[] shared = new double[clients.size()];
        double[] dal = new double[clients.size()];
        double[] dalFast = new double[clients.size()];
        List<Result[]> rows = new ArrayList<>();
        for (int i = 0; i < clients.size(); i++) {
            int n = clients.get(i);
            Result d = contend(Contender.Kind.DAL, n, false, Contender.Policy.DEFAULT);
            Result f = contend(Contender.Kind.DAL, n, false, Contender.Policy.FAST);
            Result o = contend(Contender.Kind.OURS, n, false, Contender.Policy.DEFAULT);
            Result sh = contend(Contender.Kind.OURS, n, true, Contender.Policy.DEFAULT);
            Result busy = contendThreaded(n, THREADS_PER_STORE);
            Result cas = contend(Contender.Kind.DAL, n, false, Contender.Policy.NONE);
            Result h = n > 1 ? handOff(n) : null;
            rows.add(
                    h == null
                            ? new Result[] {d, f, o, sh, busy, cas}
                            : new Result[] {d, f, o, sh, busy, cas, h});
            dal[i] = d.perSecond();
            dalFast[i] = f.perSecond();
            ours[i] = o.perSecond();
            shared[i] = sh.perSecond();
            if (i == clients.size() / 2) {
                references.add(reference());
            }
        }
        references.add(reference());
        double reference = median(references);
        for (int i = 0; i < clients.size(); i++) {
            int n = clients.get(i);
            Result[] r = rows.get(i);
            double bestDal = Math.max(r[0].perSecond(), r[1].perSecond());
            String[] names = {
                "DistributedAtomicLong, default policy",
                "DistributedAtomicLong, fast policy",
                "cosid-store, own sessions",
                "cosid-store, one shared store",
                "cosid-store, own sessions, "
                        + THREADS_PER_STORE
                        + " threads each (min share: per thread)",
                "plain compare-and-set: DistributedAtomicLong retrying at once (the issue 33"
                        + " prototype's reference)",
                "bare hand-off: turns by version, no store (at 2 clients the bound of turns; gave"
                        + " up: a turn not come in 1 s)"
            };
            for (int k = 0; k < r.length; k++) {
                table.row(
                        n,
                        names[k],
                        r[k].perSecond(),
                        r[k].gaveUp(),
                        r[k].requests(),
                        r[k].p99(),
                        r[k].minShare(),
                        r[k].perSecond() / reference,
                        r[k].perSecond() / bestDal);
            }
            Result o = r[2];
            if (n >= 2) {
                double target = n >= 8 ? 1.5 : 1.0;
                verdict(
                        String.format(
                                Locale.ROOT,
                                "%d clients, own sessions: ours / DistributedAtomicLong with its"
                                        + " better policy (at least %.1fx)",
                                n,
                                target),
                        o.perSecond() / bestDal,
                        "x",
                        o.perSecond() >= target * bestDal);
                verdicts.add(
                        String.format(
                                Locale.ROOT,
                                "%-4s %d clients, own sessions: ours / plain compare-and-set"
                                        + " retrying at once (issue 33's prototype of combining"
                                        + " measured 0.70, 1.07, 1.15, 2.27 at 2, 4, 8, 16): %.2fx",
                                "INFO",
                                n,
                                o.perSecond() / r[5].perSecond()));
                verdict(
                        n + " clients, own sessions: requests per acquire (at most 5)",
                        o.requests(),
                        "",
                        o.requests() <= 5);
                double fewest = fewestOfMean(o);
                verdict(
                        n
                                + " clients, own sessions: the fewest acquires any client made"
                                + " over the run / the mean (a figure; at least 0.5)",
                        fewest,
                        "",
                        fewest >= 0.5);
            }
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
        publish(table);
        double[] x = Chart.xs(clients);
        Chart chart =
                new Chart(
                        "Range acquires on one contended key (ZooKeeper "
                                + settings.version()
                                + ")",
                        "contending clients",
                        "successful acquires per second");
        chart.series("cosid-store, each client its own store and session", x, ours);
        chart.series("cosid-store, clients share one store (coalesced)", x, shared);
        chart.series("Curator DistributedAtomicLong, own sessions, fast retry policy", x, dalFast);
        chart.series("Curator DistributedAtomicLong, own sessions, default retry policy", x, dal);
        double[] flat = new double[clients.size()];
        Arrays.fill(flat, reference);
        chart.reference(
                "reference: one client's sequential versioned setData rate (median of "
                        + references.size()
                        + ")",
                x,
                flat);
        chart.write(outDir().resolve("throughput-vs-clients.png"));
        seatTable();
        unequalDistances(reference);
    }

    /**
     * The bare hand-off between {@code clients} sessions ({@link Contender.BareHandOff}): what a
     * scheme of turns can reach on this machine at best (at 2 clients; with more, its writers wake
     * on every write).
     */
    private Result handOff(int clients) {
        List<Contender> writers;
        try {
            writers =
                    Contender.BareHandOff.open(
                            connectString(),
                            "handoff-" + clients,
                            Contender.Policy.DEFAULT,
                            clients);
        } catch (Exception e) {
            throw new IllegalStateException("cannot set up the bare hand-off", e);
        }
        try {
            return runMeasured(writers, clients + " x bare hand-off");
        } finally {
            writers.forEach(Contender::closeQuietly);
        }
    }

    /** One client's sequential versioned setData rate, measured now. */
    private double reference() {
        return contend(Contender.Kind.BARE_SET_DATA, 1, false, Contender.Policy.DEFAULT)
                .perSecond();
    }

    static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    /**
     * Clients at unequal distances on one key: some reach the server through a proxy that adds
     * one-way latency, as a client in another rack or zone would.
     */
    private void unequalDistances(double reference) {
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
        for (int delay : settings.distances()) {
            // a far client's round trip: the added delay both ways and one uncontended write
            double farRoundTrip = 2_000.0 * delay + 1e6 / reference;
            try (DelayingProxy proxy = new DelayingProxy(clientPort(), Duration.ofMillis(delay))) {
                for (int[] mix : mixes) {
                    int near = mix[0];
                    int far = mix[1];
                    for (Contender.Kind kind : List.of(Contender.Kind.OURS, Contender.Kind.DAL)) {
                        Result alone = distanceRun(kind, near, 0, delay, proxy);
                        Result r = distanceRun(kind, near, far, delay, proxy);
                        Latencies farLatencies = new Latencies();
                        long farAcquires = 0;
                        for (ClientRun c : r.clients().subList(near, near + far)) {
                            c.latencies().forEach(farLatencies::add);
                            farAcquires += c.latencies().count();
                        }
                        double nearRate = 0;
                        for (ClientRun c : r.clients().subList(0, near)) {
                            nearRate += c.latencies().count() / seconds();
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
                            String mixed =
                                    near + " near + " + far + " clients " + delay + " ms further";
                            verdict(
                                    mixed
                                            + ": the near clients' rate / their rate alone (at"
                                            + " least 0.8)",
                                    nearRatio,
                                    "x",
                                    nearRatio >= 0.8);
                            verdicts.add(
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
                }
            }
        }
        publish(table);
    }

    /** The fewest acquires any client of a run made, over the mean of all of them. */
    private static double fewestOfMean(Result r) {
        long fewest = Long.MAX_VALUE;
        long total = 0;
        for (ClientRun c : r.clients()) {
            fewest = Math.min(fewest, c.latencies().count());
            total += c.latencies().count();
        }
        return total == 0 ? Double.NaN : fewest / (total / (double) r.clients().size());
    }

    /**
     * One run of {@code near} clients and {@code far} ones behind the proxy, on a key of its own.
     */
    private Result distanceRun(
            Contender.Kind kind, int near, int far, int delay, DelayingProxy proxy) {
        Contender.Policy policy =
                kind == Contender.Kind.DAL ? Contender.Policy.FAST : Contender.Policy.DEFAULT;
        String key =
                String.join(
                        "-",
                        "distance",
                        kind.name().toLowerCase(Locale.ROOT),
                        Integer.toString(near),
                        Integer.toString(far),
                        Integer.toString(delay));
        List<Contender> contenders = new ArrayList<>();
        try {
            for (int i = 0; i < near + far; i++) {
                contenders.add(
                        Contender.open(
                                kind,
                                i < near ? connectString() : proxy.connectString(),
                                key,
                                policy));
            }
            return runMeasured(contenders, key);
        } finally {
            contenders.forEach(Contender::closeQuietly);
        }
    }

    private double seconds() {
        return settings.run().toNanos() / 1e9;
    }

    private record Result(
            double perSecond,
            long gaveUp,
            double requests,
            double p99,
            Shares shares,
            List<ClientRun> clients) {

        double minShare() {
            return shares.minShareOfMean();
        }
    }

    private Result contend(
            Contender.Kind kind, int clients, boolean sharedStore, Contender.Policy policy) {
        String key =
                "contended-"
                        + kind.name().toLowerCase(Locale.ROOT)
                        + "-"
                        + clients
                        + (sharedStore ? "-shared" : "")
                        + "-"
                        + policy.baseSleepMs();
        List<Contender> contenders = new ArrayList<>();
        Store shared = sharedStore ? Contender.Ours.openStore(connectString(), policy) : null;
        for (int i = 0; i < clients; i++) {
            contenders.add(
                    sharedStore
                            ? new Contender.Ours(Objects.requireNonNull(shared), key, false)
                            : Contender.open(kind, connectString(), key, policy));
        }
        try {
            Result r =
                    runMeasured(
                            contenders, clients + " x " + kind.label + " (" + policy.name() + ")");
            if (kind == Contender.Kind.OURS && !sharedStore) {
                Map<String, Long> sum = new LinkedHashMap<>();
                for (Contender c : contenders) {
                    StoreFigures.rangeCounts(((Contender.Ours) c).store())
                            .forEach((name, n) -> sum.merge(name, n, Long::sum));
                }
                seatCounts.put(clients, sum);
            }
            return r;
        } finally {
            contenders.forEach(Contender::closeQuietly);
            if (shared != null) {
                shared.close();
            }
        }
    }

    /** Per client count, what the own-sessions row's stores counted ({@link #seatTable}). */
    private final Map<Integer, Map<String, Long>> seatCounts = new TreeMap<>();

    /**
     * Where the own-sessions rows' acquires went, as their stores counted them (warm-up included):
     * per acquire, and seats per write that served any.
     */
    private void seatTable() {
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
        seatCounts.forEach(
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
        publish(table);
    }

    /** Threads per store in the row where every client is a busy process of its own. */
    private static final int THREADS_PER_STORE = 4;

    /**
     * {@code clients} stores, each its own session and each used by {@code threads} threads at
     * once, as an application's threads share its store: their acquires coalesce inside each store
     * and the stores take turns in the key's line.
     */
    private Result contendThreaded(int clients, int threads) {
        String key = "contended-threaded-" + clients + "x" + threads;
        List<Store> stores = new ArrayList<>();
        List<Contender> contenders = new ArrayList<>();
        try {
            for (int i = 0; i < clients; i++) {
                Store store = Contender.Ours.openStore(connectString(), Contender.Policy.DEFAULT);
                stores.add(store);
                for (int t = 0; t < threads; t++) {
                    contenders.add(new Contender.Ours(store, key, false));
                }
            }
            return runMeasured(
                    contenders, clients + " x cosid-store with " + threads + " threads each");
        } finally {
            stores.forEach(Store::close);
        }
    }

    /**
     * A warm-up, then a measured run of the contenders together, with requests counted by the
     * server. With a name, every range they got is checked for overlap (writers that hand out no
     * ranges pass null).
     */
    private Result runMeasured(List<Contender> contenders, String checkedAs) {
        RangeChecks checks = new RangeChecks();
        runTogether(contenders, settings.warmup(), checks, new AtomicLong());
        long before = counters().received();
        AtomicLong gaveUp = new AtomicLong();
        Together together = runTogether(contenders, settings.run(), checks, gaveUp);
        List<ClientRun> results = together.clients();
        long requests = counters().since(before);
        if (checkedAs != null) {
            checks.requireDisjoint(checkedAs);
        }
        long successes = results.stream().mapToLong(r -> r.latencies().count()).sum();
        double seconds = settings.run().toNanos() / 1e9;
        Latencies all = new Latencies();
        results.forEach(r -> r.latencies().forEach(all::add));
        Shares shares =
                new Shares(
                        results.stream().map(ClientRun::successTimes).toList(),
                        together.startNanos(),
                        settings.run().toNanos());
        return new Result(
                successes / seconds,
                gaveUp.get(),
                successes == 0 ? Double.NaN : requests / (double) successes,
                all.p99Micros(),
                shares,
                results);
    }

    /** One client's part of a run: its latencies and the times of its successes. */
    private record ClientRun(Latencies latencies, long[] successTimes) {}

    /** A run of contenders together: each one's part, and when they started (System.nanoTime). */
    private record Together(List<ClientRun> clients, long startNanos) {}

    private static Together runTogether(
            List<Contender> contenders, Duration length, RangeChecks checks, AtomicLong gaveUp) {
        ExecutorService pool = Executors.newFixedThreadPool(contenders.size());
        try {
            CountDownLatch go = new CountDownLatch(1);
            long[] start = new long[1];
            List<Future<ClientRun>> futures = new ArrayList<>();
            for (Contender c : contenders) {
                futures.add(
                        pool.submit(
                                () -> {
                                    go.await();
                                    List<long[]> taken = new ArrayList<>();
                                    Latencies l = new Latencies();
                                    Latencies times = new Latencies();
                                    long end = start[0] + length.toNanos();
                                    for (long now = System.nanoTime(); now < end; ) {
                                        long[] r = c.add(STEP);
                                        long after = System.nanoTime();
                                        if (r == null) {
                                            gaveUp.incrementAndGet();
                                        } else {
                                            l.add(after - now);
                                            times.add(after);
                                            taken.add(r);
                                        }
                                        now = after;
                                    }
                                    checks.addAll(taken);
                                    long[] at = new long[times.count()];
                                    int[] i = {0};
                                    times.forEach(t -> at[i[0]++] = t);
                                    return new ClientRun(l, at);
                                }));
            }
            start[0] = System.nanoTime();
            go.countDown();
            List<ClientRun> results = new ArrayList<>();
            for (Future<ClientRun> f : futures) {
                results.add(f.get());
            }
            return new Together(results, start[0]);
        } catch (Exception e) {
            throw new IllegalStateException("a contender failed", e);
        } finally {
            pool.shutdownNow();
        }
    }

    // ---- slot leases ----

    private void slots() {
        Table table =
                new Table(
                        "Slot leases (ours): cost per operation, requests counted by the server",
                        "operation",
                        "ops",
                        "median us",
                        "p99 us",
                        "requests/op");
        try (Store store = Contender.Ours.openStore(connectString(), Contender.Policy.DEFAULT)) {
            store.slots().define("index", 1024, Duration.ofSeconds(1));
            store.slots().define("crowd", 1024, Duration.ofSeconds(1));
            OpStats indexHit = new OpStats();
            OpStats release = new OpStats();
            measure(
                    settings.run(),
                    () -> {
                        SlotLease lease =
                                indexHit.time(() -> store.slots().acquire("index", "host-a", TTL));
                        // nothing was stamped: hand the whole window back, so floors do not creep
                        // ahead run after run
                        release.time(() -> store.slots().release(lease, lease.floor()));
                    });
            OpStats filling = new OpStats();
            for (int i = 0; i < settings.held(); i++) {
                int owner = i;
                filling.time(() -> store.slots().acquire("crowd", "held-" + owner, TTL));
            }
            OpStats crowded = new OpStats();
            AtomicLong n = new AtomicLong();
            measure(
                    settings.run(),
                    () -> {
                        SlotLease lease =
                                crowded.time(
                                        () ->
                                                store.slots()
                                                        .acquire(
                                                                "crowd",
                                                                "new-" + n.incrementAndGet(),
                                                                TTL));
                        store.slots().release(lease, lease.floor());
                    });
            OpStats renew = new OpStats();
            SlotLease[] held = {store.slots().acquire("index", "host-r", TTL)};
            measure(settings.run(), () -> held[0] = renew.time(() -> store.slots().renew(held[0])));
            indexHit.row(table, "acquire, owner-index hit");
            filling.row(
                    table, "acquire, fresh, 1024-slot namespace filling 0 -> " + settings.held());
            crowded.row(
                    table, "acquire, fresh, 1024-slot namespace with " + settings.held() + " held");
            renew.row(table, "renew");
            release.row(table, "release");
        }
        publish(table);
    }

    /** Latencies and server-counted requests of one operation, each timed on its own. */
    private final class OpStats {
        final Latencies latencies = new Latencies();
        long requests;

        <T> T time(Supplier<T> op) {
            long before = counters().received();
            long start = System.nanoTime();
            T result = op.get();
            latencies.add(System.nanoTime() - start);
            requests += counters().since(before);
            return result;
        }

        void row(Table table, String name) {
            table.row(
                    name,
                    latencies.count(),
                    latencies.medianMicros(),
                    latencies.p99Micros(),
                    requests / (double) latencies.count());
        }
    }

    private static void measure(Duration length, Runnable step) {
        long end = System.nanoTime() + length.toNanos();
        while (System.nanoTime() < end) {
            step.run();
        }
    }

    // ---- many instances starting at once ----

    /**
     * The instances acquire one slot each, all let go at the same moment; the floor is the same
     * sessions each creating one distinct node, measured before and after (the faster one is the
     * floor).
     */
    private void instancesStartingTogether() {
        int count = settings.instances();
        Table table =
                new Table(
                        count
                                + " instances started together, one 1024-slot namespace (each its"
                                + " own store and session), against the floor: the same sessions"
                                + " each creating one distinct node",
                        "run",
                        "done",
                        "total ms",
                        "median us",
                        "p99 us",
                        "max us",
                        "requests each");
        List<CuratorFramework> clients = new ArrayList<>();
        List<Store> stores = new ArrayList<>();
        ExecutorService opener = Executors.newFixedThreadPool(32);
        ExecutorService starters = Executors.newFixedThreadPool(count);
        try {
            List<Future<CuratorFramework>> opening = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                opening.add(
                        opener.submit(
                                () ->
                                        Contender.curator(
                                                connectString(), Contender.Policy.DEFAULT)));
            }
            for (Future<CuratorFramework> f : opening) {
                CuratorFramework client = f.get();
                clients.add(client);
                stores.add(
                        ZooKeeperStores.open(
                                StoreConfig.of("bench", "zookeeper")
                                        .withTimeout(Duration.ofSeconds(30))
                                        .withOption("root", "/bench"),
                                client));
            }
            stores.get(0).slots().define("start", 1024, Duration.ofSeconds(1));
            clients.get(0).create().creatingParentsIfNeeded().forPath("/bench-floor");
            Start floorBefore = floor(starters, clients, "/bench-floor/a");
            Start ours =
                    together(
                            starters,
                            count,
                            i ->
                                    stores.get(i)
                                            .slots()
                                            .acquire("start", "instance-" + i, TTL)
                                            .slot());
            Start floorAfter = floor(starters, clients, "/bench-floor/b");
            if (ours.distinct() != count) {
                throw new IllegalStateException(
                        count
                                + " instances ended with only "
                                + ours.distinct()
                                + " distinct slots: a DUPLICATE slot");
            }
            floorBefore.row(table, "floor, before: create one node each");
            ours.row(table, "cosid-store: acquire one slot each");
            floorAfter.row(table, "floor, after: create one node each");
            Start floor =
                    floorBefore.totalMillis() <= floorAfter.totalMillis()
                            ? floorBefore
                            : floorAfter;
            double ratio = ours.totalMillis() / (double) Math.max(1, floor.totalMillis());
            verdict(
                    count
                            + " instances started together end with distinct slots (total "
                            + ours.totalMillis()
                            + " ms)",
                    ours.distinct(),
                    " distinct",
                    true);
            verdict(
                    count + " instances starting together: requests per acquire, at most 6",
                    ours.requestsEach(),
                    "",
                    ours.requestsEach() <= 6);
            verdict(
                    count
                            + " instances starting together: total time vs the floor ("
                            + floor.totalMillis()
                            + " ms), at most 2x",
                    ratio,
                    "x",
                    ratio <= 2);
            Chart chart =
                    new Chart(
                            count + " instances starting together",
                            "ms since the start",
                            "instances done");
            chart.line("cosid-store: holding a slot", ours.times(), ours.done());
            chart.reference(
                    "floor: one node created (faster of the runs before and after)",
                    floor.times(),
                    floor.done());
            chart.write(outDir().resolve("instances-starting-together.png"));
        } catch (Exception e) {
            throw new IllegalStateException(count + " instances starting together failed", e);
        } finally {
            starters.shutdownNow();
            opener.shutdownNow();
            stores.parallelStream().forEach(Store::close);
            clients.parallelStream().forEach(CuratorFramework::close);
        }
        publish(table);
    }

    /** The floor: every client creates one distinct node, {@code prefix} + its index, at once. */
    private Start floor(ExecutorService threads, List<CuratorFramework> clients, String prefix)
            throws Exception {
        return together(
                threads,
                clients.size(),
                i -> {
                    clients.get(i).create().forPath(prefix + i);
                    return i;
                });
    }

    /** One instance's part of a start: returns a value whose distinctness the run checks. */
    @FunctionalInterface
    private interface Part {
        long run(int instance) throws Exception;
    }

    /** What one start of all instances together measured. */
    private record Start(long[] nanos, int distinct, long totalMillis, long requests) {

        double requestsEach() {
            return requests / (double) nanos.length;
        }

        /** The completion times, sorted, in ms: the chart's x values. */
        double[] times() {
            return Arrays.stream(nanos).sorted().mapToDouble(n -> n / 1e6).toArray();
        }

        /** How many were done at each of {@link #times()}. */
        double[] done() {
            return IntStream.rangeClosed(1, nanos.length).asDoubleStream().toArray();
        }

        void row(Table table, String run) {
            Latencies latencies = new Latencies();
            Arrays.stream(nanos).forEach(latencies::add);
            table.row(
                    run,
                    nanos.length,
                    totalMillis,
                    latencies.medianMicros(),
                    latencies.p99Micros(),
                    Arrays.stream(nanos).max().orElse(0) / 1000.0,
                    requestsEach());
        }
    }

    /** Runs {@code part} for every instance at once and waits for all. */
    private Start together(ExecutorService threads, int count, Part part) throws Exception {
        CountDownLatch ready = new CountDownLatch(count);
        CountDownLatch go = new CountDownLatch(1);
        long[] start = new long[1];
        List<Future<long[]>> parts = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int instance = i;
            parts.add(
                    threads.submit(
                            () -> {
                                ready.countDown();
                                go.await();
                                long value = part.run(instance);
                                return new long[] {value, System.nanoTime() - start[0]};
                            }));
        }
        ready.await();
        long before = counters().received();
        start[0] = System.nanoTime();
        go.countDown();
        Set<Long> values = new HashSet<>();
        long[] nanos = new long[count];
        for (int i = 0; i < count; i++) {
            long[] r = parts.get(i).get();
            values.add(r[0]);
            nanos[i] = r[1];
        }
        long totalMillis = (System.nanoTime() - start[0]) / 1_000_000;
        return new Start(nanos, values.size(), totalMillis, counters().since(before));
    }

    // ---- leader failover ----

    /**
     * A 3-node ensemble of its own (tick 500 ms, so sessions outlive an election); the leader is
     * SIGKILLed {@code --kills} times under load.
     */
    private void failover() {
        int kills = settings.kills();
        Table table =
                new Table(
                        "Leader of a 3-node ensemble SIGKILLed "
                                + kills
                                + " times under load: time from each kill to each client's next"
                                + " success (each client its own session, default retry policy)",
                        "client",
                        "kills",
                        "median ms",
                        "max ms",
                        "median vs bare",
                        "max vs bare",
                        "failed operations");
        RangeChecks checks = new RangeChecks();
        try (ForkedEnsemble ensemble = ForkedEnsemble.start(settings.version(), 3, 500);
                Failover run = new Failover(ensemble)) {
            String cs = ensemble.connectString();
            Contender.Policy policy = Contender.Policy.DEFAULT;
            run.bareSetData(Contender.curator(cs, policy));
            run.distributedAtomicLong(Contender.curator(cs, policy), policy);
            run.rangeAcquire(Contender.Ours.openStore(cs, policy), checks);
            run.leaseRenew(Contender.Ours.openStore(cs, policy));
            run.run(kills);
            checks.requireDisjoint("failover");
            List<Double> bare = Failover.gapsMillis(run.workers().get(0));
            for (Failover.Worker w : run.workers()) {
                List<Double> gaps = Failover.gapsMillis(w);
                double medianRatio = median(gaps) / median(bare);
                double maxRatio = Collections.max(gaps) / Collections.max(bare);
                table.row(
                        w.name,
                        gaps.size(),
                        median(gaps),
                        Collections.max(gaps),
                        medianRatio,
                        maxRatio,
                        w.failures());
                if (w.name.startsWith("cosid-store")) {
                    verdict(
                            "failover: "
                                    + w.name
                                    + " median time to next success vs bare setData, at most 1.2x",
                            medianRatio,
                            "x",
                            medianRatio <= 1.2);
                    verdict(
                            "failover: "
                                    + w.name
                                    + " max time to next success vs bare setData, at most 1.2x",
                            maxRatio,
                            "x",
                            maxRatio <= 1.2);
                }
            }
        } catch (Exception e) {
            throw new IllegalStateException("the failover scenario failed", e);
        }
        publish(table);
    }

    // ---- in-memory ----

    private void inMemory() {
        Table table =
                new Table(
                        "In-memory store, one thread (JMH has the careful figures:"
                                + " store-benchmarks/target/jmh.json)",
                        "operation",
                        "ops",
                        "ops/s");
        try (Store store = InMemoryStores.open()) {
            for (int round = 0; round < 2; round++) { // the first round warms up
                long count = 0;
                long start = System.nanoTime();
                long end = start + settings.run().toNanos();
                long now = start;
                while (now < end) {
                    for (int i = 0; i < 1000; i++) {
                        store.ranges().acquire("orders", STEP);
                    }
                    count += 1000;
                    now = System.nanoTime();
                }
                if (round == 1) {
                    double perSecond = count * 1e9 / (now - start);
                    table.row("range acquire", count, perSecond);
                    verdict(
                            "in-memory range acquires per second, one thread (millions)",
                            perSecond / 1e6,
                            "M",
                            perSecond >= 1e6);
                }
            }
        }
        publish(table);
    }

    // ---- output ----

    private void publish(Table table) {
        tables.add(table);
        System.out.println(table.text());
    }

    private void verdict(String what, double value, String unit, boolean met) {
        verdicts.add(
                String.format(
                        Locale.ROOT, "%-4s %s: %.2f%s", met ? "MET" : "MISS", what, value, unit));
    }

    private Path outDir() {
        try {
            return Files.createDirectories(settings.out());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Path write() {
        StringBuilder text = new StringBuilder(machine()).append('\n');
        StringBuilder md =
                new StringBuilder("### Side-by-side run\n\n")
                        .append("Machine: ")
                        .append(machine())
                        .append("\n\n");
        for (Table t : tables) {
            text.append(t.text()).append('\n');
            md.append(t.markdown());
        }
        text.append("Targets\n");
        md.append("#### Targets\n\n");
        for (String v : verdicts) {
            text.append("  ").append(v).append('\n');
            md.append("- ").append(v).append('\n');
        }
        System.out.println(text);
        Path results = outDir().resolve("results.md");
        try {
            Files.writeString(results, md.toString());
            Files.writeString(outDir().resolve("results.txt"), text.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return results;
    }

    private String machine() {
        String cpu = "unknown CPU";
        try {
            cpu =
                    Files.readAllLines(Path.of("/proc/cpuinfo")).stream()
                            .filter(l -> l.startsWith("model name"))
                            .findFirst()
                            .map(l -> l.substring(l.indexOf(':') + 1).trim())
                            .orElse(cpu);
        } catch (IOException | RuntimeException e) {
            // not Linux: the CPU stays unnamed
        }
        return String.format(
                Locale.ROOT,
                "%d cores (%s), %s %s, Java %s, ZooKeeper %s standalone (forked JVM, "
                        + "data on local disk), %.1f s per measured run after %.1f s warm-up",
                Runtime.getRuntime().availableProcessors(),
                cpu,
                System.getProperty("os.name"),
                System.getProperty("os.version"),
                System.getProperty("java.version"),
                settings.version(),
                settings.run().toMillis() / 1000.0,
                settings.warmup().toMillis() / 1000.0);
    }
}
