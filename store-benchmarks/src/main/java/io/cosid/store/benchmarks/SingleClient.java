package io.cosid.store.benchmarks;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

/**
 * The one-client scenario of the side-by-side harness: latency of one acquire with nobody else on
 * the key, against a bare setData.
 */
final class SingleClient {

    private final SideBySide h;

    SingleClient(SideBySide h) {
        this.h = h;
    }

    void singleClient() {
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
                                h.connectString(),
                                "single-" + kind.name().toLowerCase(Locale.ROOT),
                                Contender.Policy.DEFAULT));
                latencies.put(kind, new Latencies());
            }
            for (Contender c : contenders.values()) {
                loop(c, h.settings().warmup(), new Latencies());
            }
            // rounds in turn, so that drift of the machine or the server touches every contender
            // alike
            int rounds = 10;
            Duration slice = h.settings().run().dividedBy(rounds);
            for (int round = 0; round < rounds; round++) {
                for (Contender.Kind kind : kinds) {
                    long before = h.counters().received();
                    loop(Maps.at(contenders, kind), slice, Maps.at(latencies, kind));
                    requests.merge(kind, h.counters().since(before), Long::sum);
                }
            }
        } catch (Exception e) {
            throw new IllegalStateException("the one-client comparison failed", e);
        } finally {
            contenders.values().forEach(Contender::closeQuietly);
        }
        report(kinds, latencies, requests);
    }

    private void report(
            Contender.Kind[] kinds,
            Map<Contender.Kind, Latencies> latencies,
            Map<Contender.Kind, Long> requests) {
        double bare = Maps.at(latencies, Contender.Kind.BARE_SET_DATA).medianMicros();
        Table table =
                new Table(
                        "Range acquire, one client, no contention (step "
                                + SideBySide.STEP
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
        h.publish(table);
        verdicts(latencies, bare);
    }

    private void verdicts(Map<Contender.Kind, Latencies> latencies, double bare) {
        double ours = Maps.at(latencies, Contender.Kind.OURS).medianMicros();
        double dal = Maps.at(latencies, Contender.Kind.DAL).medianMicros();
        h.verdict(
                "one client: range acquire median / bare setData median (at most 1.1x)",
                ours / bare,
                "x",
                ours / bare <= 1.1);
        h.verdict(
                "one client: DistributedAtomicLong.add median / range acquire median (at least"
                        + " 1.5x)",
                dal / ours,
                "x",
                dal / ours >= 1.5);
        double async = Maps.at(latencies, Contender.Kind.BARE_SET_DATA_ASYNC).medianMicros();
        h.addVerdict(
                String.format(
                        Locale.ROOT,
                        "%-4s %s: %.2fx",
                        "INFO",
                        "one client: asynchronous bare setData median / bare setData median (the"
                                + " event-thread hand-off the store's synchronous write avoids)",
                        async / bare));
    }

    /** Adds in a loop for a while, into the given latencies (only adds that succeeded count). */
    static void loop(Contender c, Duration length, Latencies l) throws Exception {
        long start = System.nanoTime();
        long end = start + length.toNanos();
        long now = start;
        while (now < end) {
            long[] r = c.add(SideBySide.STEP);
            long after = System.nanoTime();
            if (r != null) {
                l.add(after - now);
            }
            now = after;
        }
        l.elapsed(l.elapsedNanos() + now - start);
    }
}
