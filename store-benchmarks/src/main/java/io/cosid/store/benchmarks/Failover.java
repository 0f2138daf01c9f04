package io.cosid.store.benchmarks;

import static org.awaitility.Awaitility.await;

import io.cosid.store.Range;
import io.cosid.store.SlotLease;
import io.cosid.store.Store;
import io.cosid.store.zookeeper.harness.ForkedEnsemble;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.atomic.AtomicValue;
import org.apache.curator.framework.recipes.atomic.DistributedAtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * The leader of a 3-node ensemble SIGKILLed under load, again and again: how long until each
 * client's next success. Four clients, each its own session, work without pause: a bare Curator
 * {@code setData} (the reference), Curator's {@code DistributedAtomicLong}, our range acquire and
 * our lease renew. After each kill, the time from the kill to each client's first success after it
 * is one sample; the old leader comes back, and the next kill waits until every client has
 * succeeded again.
 */
final class Failover implements AutoCloseable {

    /** A client's work: one operation per call; a failure throws. */
    @FunctionalInterface
    interface Operation {
        void run() throws Exception;
    }

    /** One client working in a loop, remembering when each operation succeeded. */
    static final class Worker {
        final String name;
        private final Operation operation;
        private final ConcurrentSkipListSet<Long> successes = new ConcurrentSkipListSet<>();
        private final AtomicLong failures = new AtomicLong();
        private final List<Long> gaps = new ArrayList<>();
        private @Nullable Thread thread;

        Worker(String name, Operation operation) {
            this.name = name;
            this.operation = operation;
        }

        void start(AtomicBoolean stop) {
            Thread worker =
                    new Thread(
                            () -> {
                                while (!stop.get()) {
                                    try {
                                        operation.run();
                                        successes.add(System.nanoTime());
                                    } catch (Exception e) {
                                        failures.incrementAndGet();
                                    }
                                }
                            },
                            "failover-" + name);
            worker.setDaemon(true);
            worker.start();
            thread = worker;
        }

        /** The first success after {@code nanos}, if any. */
        @Nullable Long firstAfter(long nanos) {
            return successes.higher(nanos);
        }

        long failures() {
            return failures.get();
        }

        void join() throws InterruptedException {
            Thread worker = thread;
            if (worker != null) {
                worker.join(Duration.ofSeconds(60).toMillis());
            }
        }
    }

    private final ForkedEnsemble ensemble;
    private final List<Worker> workers = new ArrayList<>();
    private final AtomicBoolean stop = new AtomicBoolean();
    private final List<AutoCloseable> resources = new ArrayList<>();

    Failover(ForkedEnsemble ensemble) {
        this.ensemble = ensemble;
    }

    /** The bare Curator client: an unconditional {@code setData} per operation. */
    void bareSetData(CuratorFramework client) throws Exception {
        resources.add(client);
        client.create().creatingParentsIfNeeded().forPath("/failover/bare", new byte[8]);
        byte[] data = new byte[8];
        workers.add(
                new Worker(
                        "bare Curator setData (reference)",
                        () -> client.setData().forPath("/failover/bare", data)));
    }

    /** Curator's DistributedAtomicLong, {@code add(step)} per operation. */
    void distributedAtomicLong(CuratorFramework client, Contender.Policy policy) {
        resources.add(client);
        DistributedAtomicLong counter =
                new DistributedAtomicLong(client, "/failover/dal", policy.curator());
        workers.add(
                new Worker(
                        "Curator DistributedAtomicLong.add",
                        () -> {
                            AtomicValue<Long> v = counter.add(100L);
                            if (!v.succeeded()) {
                                throw new IllegalStateException("gave up");
                            }
                        }));
    }

    /** Our range acquire, every range kept for the overlap check. */
    void rangeAcquire(Store store, RangeChecks checks) {
        resources.add(store);
        workers.add(
                new Worker(
                        "cosid-store range acquire",
                        () -> {
                            Range r = store.ranges().acquire("failover", 100);
                            checks.addAll(List.of(new long[] {r.start(), r.end()}));
                        }));
    }

    /** Our lease renew, on one lease held throughout. */
    void leaseRenew(Store store) {
        resources.add(store);
        store.slots().define("failover", 16, Duration.ofMillis(100));
        SlotLease[] lease = {store.slots().acquire("failover", "renewer", Duration.ofSeconds(30))};
        workers.add(
                new Worker(
                        "cosid-store lease renew", () -> lease[0] = store.slots().renew(lease[0])));
    }

    /**
     * Kills the leader {@code kills} times and records, per client, the time from each kill to its
     * next success.
     */
    void run(int kills) {
        workers.forEach(w -> w.start(stop));
        for (int k = 0; k < kills; k++) {
            long settled = System.nanoTime();
            await("every client succeeding before kill " + (k + 1))
                    .atMost(Duration.ofMinutes(2))
                    .until(() -> workers.stream().allMatch(w -> w.firstAfter(settled) != null));
            int leader = ensemble.leader();
            long killed = System.nanoTime();
            ensemble.kill(leader);
            await("every client succeeding after kill " + (k + 1))
                    .atMost(Duration.ofMinutes(2))
                    .until(() -> workers.stream().allMatch(w -> w.firstAfter(killed) != null));
            for (Worker w : workers) {
                // every worker succeeded after the kill: awaited above
                w.gaps.add(Objects.requireNonNull(w.firstAfter(killed)) - killed);
            }
            ensemble.restart(leader);
        }
        stop.set(true);
        for (Worker w : workers) {
            try {
                w.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    List<Worker> workers() {
        return workers;
    }

    /** The gaps of a worker, in ms, one per kill. */
    static List<Double> gapsMillis(Worker w) {
        return w.gaps.stream().map(n -> n / 1e6).toList();
    }

    @Override
    public void close() {
        stop.set(true);
        for (AutoCloseable r : resources) {
            try {
                r.close();
            } catch (Exception e) {
                System.err.println("failover: closing " + r + " failed: " + e);
            }
        }
    }
}
