package io.cosid.store.benchmarks;

import io.cosid.store.Store;
import io.cosid.store.cosid.StoreIdSegmentDistributorFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import me.ahoo.cosid.segment.IdSegment;
import me.ahoo.cosid.segment.IdSegmentDistributor;
import me.ahoo.cosid.segment.IdSegmentDistributorDefinition;
import me.ahoo.cosid.segment.SegmentChainId;
import me.ahoo.cosid.segment.concurrent.PrefetchWorkerExecutorService;
import org.apache.curator.framework.CuratorFramework;

/**
 * CosId's {@code SegmentChainId} (with its prefetch worker) on our {@code
 * StoreIdSegmentDistributor} against the same generator on a distributor written the way CosId's
 * own ZooKeeper one is ({@link DalSegmentDistributor}), side by side on one server: IDs per second
 * and ZooKeeper requests per segment, 1 and 8 processes (each its own session and generator
 * thread), in interleaved rounds whose median is reported.
 */
final class CosIdSegments {

    static final long STEP = 100;
    static final List<Integer> PROCESSES = List.of(1, 8);
    private static final int ROUNDS = 3;

    /** Which distributor the generators draw from. */
    enum Kind {
        OURS("StoreIdSegmentDistributor"),
        DAL("DistributedAtomicLong (CosId's way)"),
        DAL_FAST("DistributedAtomicLong (CosId's way), fast policy");

        final String label;

        Kind(String label) {
            this.label = label;
        }

        Contender.Policy policy() {
            return this == DAL_FAST ? Contender.Policy.FAST : Contender.Policy.DEFAULT;
        }
    }

    /** One measured run. */
    record Run(double idsPerSecond, long calls, long segmentIds, long requests) {

        double requestsPerCall() {
            return calls == 0 ? Double.NaN : (double) requests / calls;
        }

        double idsPerCall() {
            return calls == 0 ? Double.NaN : (double) segmentIds / calls;
        }
    }

    private final String connectString;
    private final ServerCounters counters;
    private final Duration warmup;
    private final Duration run;

    CosIdSegments(String connectString, ServerCounters counters, Duration warmup, Duration run) {
        this.connectString = connectString;
        this.counters = counters;
        this.warmup = warmup;
        this.run = run;
    }

    /** The median run of each kind and process count, by IDs per second. */
    List<Map<Kind, Run>> measure() throws Exception {
        List<Map<Kind, Run>> medians = new ArrayList<>();
        for (int processes : PROCESSES) {
            Map<Kind, List<Run>> rounds = new EnumMap<>(Kind.class);
            for (int r = 0; r < ROUNDS; r++) {
                for (Kind kind : Kind.values()) {
                    rounds.computeIfAbsent(kind, k -> new ArrayList<>()).add(once(kind, processes));
                }
            }
            Map<Kind, Run> row = new EnumMap<>(Kind.class);
            rounds.forEach(
                    (kind, runs) -> {
                        runs.sort((a, b) -> Double.compare(a.idsPerSecond(), b.idsPerSecond()));
                        row.put(kind, runs.get(runs.size() / 2));
                    });
            medians.add(row);
        }
        return medians;
    }

    private Run once(Kind kind, int processes) throws Exception {
        String namespace = "bench-" + UUID.randomUUID().toString().substring(0, 8);
        List<AutoCloseable> sessions = new ArrayList<>();
        List<RecordingSegmentDistributor> recorders = new ArrayList<>();
        List<SegmentChainId> chains = new ArrayList<>();
        PrefetchWorkerExecutorService prefetch =
                new PrefetchWorkerExecutorService(
                        PrefetchWorkerExecutorService.DEFAULT_PREFETCH_PERIOD, processes, false);
        try {
            for (int p = 0; p < processes; p++) {
                IdSegmentDistributor distributor = open(kind, namespace, sessions);
                RecordingSegmentDistributor recorder = new RecordingSegmentDistributor(distributor);
                recorders.add(recorder);
                chains.add(
                        new SegmentChainId(
                                IdSegment.TIME_TO_LIVE_FOREVER,
                                SegmentChainId.DEFAULT_SAFE_DISTANCE,
                                recorder,
                                prefetch));
            }
            return generate(chains, recorders, kind, processes);
        } finally {
            prefetch.shutdown();
            for (AutoCloseable s : sessions) {
                s.close();
            }
        }
    }

    /** A distributor of {@code kind} on a session of its own, added to {@code sessions}. */
    private IdSegmentDistributor open(Kind kind, String namespace, List<AutoCloseable> sessions)
            throws Exception {
        if (kind == Kind.OURS) {
            Store store = Contender.Ours.openStore(connectString, kind.policy());
            sessions.add(store);
            return new StoreIdSegmentDistributorFactory(store.ranges())
                    .create(new IdSegmentDistributorDefinition(namespace, "order", 0, STEP));
        }
        CuratorFramework client = Contender.curator(connectString, kind.policy());
        sessions.add(client);
        return new DalSegmentDistributor(
                client, kind.policy().curator(), namespace, "order", 0, STEP);
    }

    /** One burst measurement: requests per segment and the median time for a whole burst. */
    record Burst(int processes, Kind kind, int rounds, long requests, double medianMillis) {

        double requestsPerSegment() {
            return (double) requests / ((long) processes * rounds);
        }
    }

    /**
     * Bursts: {@code processes} sessions each take one segment at the same instant (a barrier),
     * {@code rounds} times, a pause between rounds; what synchronized prefetches of a fleet cost.
     */
    Burst burst(Kind kind, int processes, int rounds) throws Exception {
        String namespace = "burst-" + UUID.randomUUID().toString().substring(0, 8);
        List<AutoCloseable> sessions = new ArrayList<>();
        try {
            List<RecordingSegmentDistributor> recorders = new ArrayList<>();
            for (int p = 0; p < processes; p++) {
                recorders.add(new RecordingSegmentDistributor(open(kind, namespace, sessions)));
            }
            for (RecordingSegmentDistributor r : recorders) {
                r.nextMaxId(STEP); // each session knows the key before the bursts
            }
            long[][] finished = new long[processes][rounds];
            long[] started = new long[rounds];
            int[] round = {0};
            // the barrier's action runs once per round, before any process is let go
            CyclicBarrier barrier =
                    new CyclicBarrier(processes, () -> started[round[0]++] = System.nanoTime());
            List<Throwable> failures = new ArrayList<>();
            List<Thread> threads = new ArrayList<>();
            long before = counters.received();
            for (int p = 0; p < processes; p++) {
                int me = p;
                Thread t =
                        new Thread(
                                () -> {
                                    try {
                                        for (int r = 0; r < rounds; r++) {
                                            barrier.await();
                                            recorders.get(me).nextMaxId(STEP);
                                            finished[me][r] = System.nanoTime();
                                            Thread.sleep(50);
                                        }
                                    } catch (Exception | Error e) {
                                        synchronized (failures) {
                                            failures.add(e);
                                        }
                                        barrier.reset();
                                    }
                                },
                                "burst-" + kind + "-" + p);
                threads.add(t);
                t.start();
            }
            for (Thread t : threads) {
                t.join();
            }
            long requests = counters.since(before);
            requireClean(kind.label + ", bursts of " + processes, failures, recorders);
            return new Burst(processes, kind, rounds, requests, medianSpan(started, finished));
        } finally {
            for (AutoCloseable s : sessions) {
                s.close();
            }
        }
    }

    /** The median over rounds of the ms from a round's start to its last process done. */
    private static double medianSpan(long[] started, long[][] finished) {
        List<Double> spans = new ArrayList<>();
        for (int r = 0; r < started.length; r++) {
            long last = 0;
            for (long[] process : finished) {
                last = Math.max(last, process[r]);
            }
            spans.add((last - started[r]) / 1e6);
        }
        spans.sort(null);
        return spans.get(spans.size() / 2);
    }

    /** The bursts table: 2 and 8 processes, each distributor. */
    Table bursts() throws Exception {
        Table table =
                new Table(
                        "Bursts: each process takes one segment at the same instant (20 rounds)",
                        "processes",
                        "distributor",
                        "requests/segment",
                        "median burst ms");
        for (int processes : List.of(2, 8)) {
            for (Kind kind : Kind.values()) {
                Burst b = burst(kind, processes, 20);
                table.row(
                        processes,
                        kind.label,
                        String.format(Locale.ROOT, "%.2f", b.requestsPerSegment()),
                        String.format(Locale.ROOT, "%.1f", b.medianMillis()));
            }
        }
        return table;
    }

    private Run generate(
            List<SegmentChainId> chains,
            List<RecordingSegmentDistributor> recorders,
            Kind kind,
            int processes)
            throws InterruptedException {
        LongAdder ids = new LongAdder();
        AtomicBoolean measuring = new AtomicBoolean();
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = new ArrayList<>();
        long end = System.nanoTime() + warmup.plus(run).toNanos();
        for (SegmentChainId chain : chains) {
            Thread t =
                    new Thread(
                            () -> {
                                try {
                                    while (System.nanoTime() - end < 0) {
                                        chain.generate();
                                        if (measuring.get()) {
                                            ids.increment();
                                        }
                                    }
                                } catch (RuntimeException | Error e) {
                                    synchronized (failures) {
                                        failures.add(e);
                                    }
                                }
                            },
                            "cosid-" + kind + "-" + threads.size());
            threads.add(t);
            t.start();
        }
        Thread.sleep(warmup.toMillis());
        int[] callsBefore = new int[recorders.size()];
        for (int i = 0; i < callsBefore.length; i++) {
            callsBefore[i] = recorders.get(i).segments().size();
        }
        long before = counters.received();
        long started = System.nanoTime();
        measuring.set(true);
        Thread.sleep(run.toMillis());
        measuring.set(false);
        double seconds = (System.nanoTime() - started) / 1e9;
        long requests = counters.since(before);
        long calls = 0;
        long segmentIds = 0;
        for (int i = 0; i < callsBefore.length; i++) {
            List<long[]> segments = recorders.get(i).segments();
            for (long[] segment : segments.subList(callsBefore[i], segments.size())) {
                segmentIds += segment[1] - segment[0];
                calls++;
            }
        }
        for (Thread t : threads) {
            t.join();
        }
        requireClean(kind.label + ", " + processes + " processes", failures, recorders);
        return new Run(ids.sum() / seconds, calls, segmentIds, requests);
    }

    /**
     * Fails the measurement {@code what} if any generator or process failed, or if any two segments
     * handed out overlap.
     */
    private static void requireClean(
            String what, List<Throwable> failures, List<RecordingSegmentDistributor> recorders) {
        if (!failures.isEmpty()) {
            throw new IllegalStateException(what + " failed: " + failures.get(0), failures.get(0));
        }
        RangeChecks checks = new RangeChecks();
        recorders.forEach(r -> checks.addAll(r.segments()));
        checks.requireDisjoint(what);
    }

    /** The table of medians and the verdicts. */
    static Table table(List<Map<Kind, Run>> medians, List<String> verdicts) {
        Table table =
                new Table(
                        "CosId SegmentChainId on ZooKeeper: IDs per second (step " + STEP + ")",
                        "processes",
                        "distributor",
                        "IDs/s",
                        "nextMaxId calls",
                        "IDs per call",
                        "requests/call",
                        "vs DistributedAtomicLong");
        for (int i = 0; i < PROCESSES.size(); i++) {
            Map<Kind, Run> row = medians.get(i);
            Run dal = Maps.at(row, Kind.DAL);
            Run fast = Maps.at(row, Kind.DAL_FAST);
            Run bestDal = fast.idsPerSecond() > dal.idsPerSecond() ? fast : dal;
            for (Kind kind : Kind.values()) {
                Run r = Maps.at(row, kind);
                table.row(
                        PROCESSES.get(i),
                        kind.label,
                        Math.round(r.idsPerSecond()),
                        r.calls(),
                        String.format(Locale.ROOT, "%.0f", r.idsPerCall()),
                        String.format(Locale.ROOT, "%.2f", r.requestsPerCall()),
                        String.format(
                                Locale.ROOT, "%.2fx", r.idsPerSecond() / bestDal.idsPerSecond()));
            }
            Run ours = Maps.at(row, Kind.OURS);
            double ratio = ours.idsPerSecond() / bestDal.idsPerSecond();
            verdicts.add(
                    String.format(
                            Locale.ROOT,
                            "%-4s CosId SegmentChainId, %d process(es): IDs/s vs the better"
                                    + " DistributedAtomicLong: %.2fx (target >= 1.00x)",
                            ratio >= 1.0 ? "MET" : "MISS",
                            PROCESSES.get(i),
                            ratio));
            double fewer = ours.requestsPerCall() / bestDal.requestsPerCall();
            verdicts.add(
                    String.format(
                            Locale.ROOT,
                            "%-4s CosId SegmentChainId, %d process(es): ZooKeeper requests per"
                                    + " segment %.2f vs %.2f (target: fewer)",
                            fewer < 1.0 ? "MET" : "MISS",
                            PROCESSES.get(i),
                            ours.requestsPerCall(),
                            bestDal.requestsPerCall()));
        }
        return table;
    }
}
