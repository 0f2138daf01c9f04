package io.cosid.store.benchmarks;

import io.cosid.store.Store;
import io.cosid.store.tck.net.DelayingProxy;
import io.cosid.store.zookeeper.harness.StoreFigures;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One measured contention run of the side-by-side harness: clients started together on one key,
 * every range checked, rates, shares, requests and tails.
 */
final class ContentionRuns {

    private final SideBySide h;

    ContentionRuns(SideBySide h) {
        this.h = h;
    }

    /**
     * One run of {@code near} clients and {@code far} ones behind the proxy, on a key of its own.
     */
    Result distanceRun(Contender.Kind kind, int near, int far, int delay, DelayingProxy proxy) {
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
                                i < near ? h.connectString() : proxy.connectString(),
                                key,
                                policy));
            }
            return runMeasured(contenders, key);
        } finally {
            contenders.forEach(Contender::closeQuietly);
        }
    }

    record Result(
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

    Result contend(Contender.Kind kind, int clients, boolean sharedStore, Contender.Policy policy) {
        String key =
                "contended-"
                        + kind.name().toLowerCase(Locale.ROOT)
                        + "-"
                        + clients
                        + (sharedStore ? "-shared" : "")
                        + "-"
                        + policy.baseSleepMs();
        List<Contender> contenders = new ArrayList<>();
        Store shared = sharedStore ? Contender.Ours.openStore(h.connectString(), policy) : null;
        for (int i = 0; i < clients; i++) {
            contenders.add(
                    sharedStore
                            ? new Contender.Ours(Objects.requireNonNull(shared), key, false)
                            : Contender.open(kind, h.connectString(), key, policy));
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

    /**
     * Per client count, what the own-sessions row's stores counted ({@link Contention#seatTable}).
     */
    final Map<Integer, Map<String, Long>> seatCounts = new TreeMap<>();

    /** Threads per store in the row where every client is a busy process of its own. */
    static final int THREADS_PER_STORE = 4;

    /**
     * {@code clients} stores, each its own session and each used by {@code threads} threads at
     * once, as an application's threads share its store: their acquires coalesce inside each store
     * and the stores take turns in the key's line.
     */
    Result contendThreaded(int clients, int threads) {
        String key = "contended-threaded-" + clients + "x" + threads;
        List<Store> stores = new ArrayList<>();
        List<Contender> contenders = new ArrayList<>();
        try {
            for (int i = 0; i < clients; i++) {
                Store store = Contender.Ours.openStore(h.connectString(), Contender.Policy.DEFAULT);
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
    Result runMeasured(List<Contender> contenders, String checkedAs) {
        RangeChecks checks = new RangeChecks();
        runTogether(contenders, h.settings().warmup(), checks, new AtomicLong());
        long before = h.counters().received();
        AtomicLong gaveUp = new AtomicLong();
        Together together = runTogether(contenders, h.settings().run(), checks, gaveUp);
        List<ClientRun> results = together.clients();
        long requests = h.counters().since(before);
        if (checkedAs != null) {
            checks.requireDisjoint(checkedAs);
        }
        long successes = results.stream().mapToLong(r -> r.latencies().count()).sum();
        double seconds = h.settings().run().toNanos() / 1e9;
        Latencies all = new Latencies();
        results.forEach(r -> r.latencies().forEach(all::add));
        Shares shares =
                new Shares(
                        results.stream().map(ClientRun::successTimes).toList(),
                        together.startNanos(),
                        h.settings().run().toNanos());
        return new Result(
                successes / seconds,
                gaveUp.get(),
                successes == 0 ? Double.NaN : requests / (double) successes,
                all.p99Micros(),
                shares,
                results);
    }

    /** One client's part of a run: its latencies and the times of its successes. */
    record ClientRun(Latencies latencies, long[] successTimes) {}

    /** A run of contenders together: each one's part, and when they started (System.nanoTime). */
    record Together(List<ClientRun> clients, long startNanos) {}

    static Together runTogether(
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
                                        long[] r = c.add(SideBySide.STEP);
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
}
