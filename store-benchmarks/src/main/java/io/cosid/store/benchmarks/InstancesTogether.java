package io.cosid.store.benchmarks;

import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.zookeeper.ZooKeeperStores;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.apache.curator.framework.CuratorFramework;

/**
 * The scenario of many instances starting together in the side-by-side harness: how long until
 * every instance holds a distinct slot, against a floor of bare writes.
 */
final class InstancesTogether {

    private final SideBySide h;

    InstancesTogether(SideBySide h) {
        this.h = h;
    }

    /**
     * The instances acquire one slot each, all let go at the same moment; the floor is the same
     * sessions each creating one distinct node, measured before and after (the faster one is the
     * floor).
     */
    void instancesStartingTogether() {
        int count = h.settings().instances();
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
            open(opener, count, clients, stores);
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
                                            .acquire("start", "instance-" + i, SideBySide.TTL)
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
            report(count, ours, floor);
        } catch (Exception e) {
            throw new IllegalStateException(count + " instances starting together failed", e);
        } finally {
            starters.shutdownNow();
            opener.shutdownNow();
            stores.parallelStream().forEach(Store::close);
            clients.parallelStream().forEach(CuratorFramework::close);
        }
        h.publish(table);
    }

    /** Opens {@code count} clients (32 at a time) and a store on each. */
    private void open(
            ExecutorService opener, int count, List<CuratorFramework> clients, List<Store> stores)
            throws Exception {
        List<Future<CuratorFramework>> opening = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            opening.add(
                    opener.submit(
                            () -> Contender.curator(h.connectString(), Contender.Policy.DEFAULT)));
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
    }

    /** The verdicts and the chart: ours against the faster floor. */
    private void report(int count, Start ours, Start floor) {
        double ratio = ours.totalMillis() / (double) Math.max(1, floor.totalMillis());
        h.verdict(
                count
                        + " instances started together end with distinct slots (total "
                        + ours.totalMillis()
                        + " ms)",
                ours.distinct(),
                " distinct",
                true);
        h.verdict(
                count + " instances starting together: requests per acquire, at most 6",
                ours.requestsEach(),
                "",
                ours.requestsEach() <= 6);
        h.verdict(
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
        chart.write(h.outDir().resolve("instances-starting-together.png"));
    }

    /** The floor: every client creates one distinct node, {@code prefix} + its index, at once. */
    Start floor(ExecutorService threads, List<CuratorFramework> clients, String prefix)
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
    interface Part {
        long run(int instance) throws Exception;
    }

    /** What one start of all instances together measured. */
    record Start(long[] nanos, int distinct, long totalMillis, long requests) {

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
    Start together(ExecutorService threads, int count, Part part) throws Exception {
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
        long before = h.counters().received();
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
        return new Start(nanos, values.size(), totalMillis, h.counters().since(before));
    }
}
