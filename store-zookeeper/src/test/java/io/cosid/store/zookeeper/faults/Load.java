package io.cosid.store.zookeeper.faults;

import static org.awaitility.Awaitility.await;

import io.cosid.store.LeaseGuard;
import io.cosid.store.LeaseLostException;
import io.cosid.store.SlotLease;
import io.cosid.store.SlotsExhaustedException;
import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.StoreException;
import io.cosid.store.tck.HistoryRecorder;
import io.cosid.store.zookeeper.ZooKeeperStores;
import io.cosid.store.zookeeper.internal.StoreInternals;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;

/**
 * Clients that keep working while faults are injected: range clients acquiring on shared keys, and
 * lease owners churning (acquire, renew, release, walk away). Each has its own store, so its own
 * session. Every success is recorded for {@link io.cosid.store.tck.HistoryChecker}; failures are
 * counted and retried, as a real client would.
 */
final class Load implements AutoCloseable {

    static final String NAMESPACE = "fleet";

    final HistoryRecorder recorder = new HistoryRecorder();
    final AtomicLong operations = new AtomicLong();
    final AtomicLong failures = new AtomicLong();
    final AtomicLong rangeAcquires = new AtomicLong();
    final AtomicLong leaseGrants = new AtomicLong();
    private final List<Thread> threads = new ArrayList<>();
    private final List<Store> stores = new ArrayList<>();
    private volatile boolean stopping;

    /** Opens a store with its own client on the ensemble. */
    Store open(String connectString, Duration timeout) {
        Store store =
                ZooKeeperStores.open(
                        StoreConfig.of("load", "zookeeper")
                                .withTimeout(timeout)
                                .withOption("connectString", connectString)
                                .withOption("sessionTimeout", "6s")
                                .withOption("connectionTimeout", "3s")
                                .withOption("retry.maxRetries", "29"));
        synchronized (stores) {
            stores.add(store);
        }
        return store;
    }

    void rangeClients(int count, String connectString, Duration timeout, List<String> keys) {
        rangeClients(count, 1, connectString, timeout, keys);
    }

    /**
     * Range clients, each its own store (session) used by {@code threadsEach} threads at once, so
     * that acquires inside one store are coalesced while faults hit.
     */
    void rangeClients(
            int count, int threadsEach, String connectString, Duration timeout, List<String> keys) {
        for (int i = 0; i < count; i++) {
            Store store = open(connectString, timeout);
            for (int t = 0; t < threadsEach; t++) {
                start(
                        "range-" + i + "-" + t,
                        () -> {
                            String key = keys.get(ThreadLocalRandom.current().nextInt(keys.size()));
                            recorder.acquire(
                                    store.ranges(),
                                    key,
                                    1 + ThreadLocalRandom.current().nextInt(20));
                            rangeAcquires.incrementAndGet();
                        });
            }
        }
    }

    /**
     * Lease owners that stamp their wall clock wherever their {@link LeaseGuard} allows, and
     * release either declaring nothing or declaring the highest timestamp they stamped plus 1 ms,
     * as {@code LeaseGuard.release} does. The checker then holds every next floor to the bound each
     * release set.
     */
    void leaseOwners(int count, int limit, String connectString, Duration timeout, Duration ttl) {
        for (int i = 0; i < count; i++) {
            Store store = open(connectString, timeout);
            String owner = "owner-" + i;
            LeaseGuard[] held = new LeaseGuard[1];
            long[] highestStamped = {Long.MIN_VALUE};
            start(
                    owner,
                    () -> {
                        int op = ThreadLocalRandom.current().nextInt(10);
                        try {
                            if (held[0] == null) {
                                long sent = System.nanoTime();
                                held[0] =
                                        LeaseGuard.of(
                                                recorder.acquire(
                                                        store.slots(),
                                                        NAMESPACE,
                                                        owner,
                                                        ttl,
                                                        limit),
                                                sent);
                                highestStamped[0] = Long.MIN_VALUE;
                                leaseGrants.incrementAndGet();
                                return;
                            }
                            long now = System.currentTimeMillis();
                            if (held[0].mayStamp(now)) {
                                highestStamped[0] = Math.max(highestStamped[0], now);
                            }
                            SlotLease lease = held[0].lease();
                            if (op < 6) {
                                long sent = System.nanoTime();
                                held[0] = LeaseGuard.of(recorder.renew(store.slots(), lease), sent);
                            } else if (op == 6) {
                                held[0] = null;
                                recorder.release(
                                        store.slots(),
                                        lease); // declares nothing: the window stays used
                            } else if (op == 7) {
                                held[0] = null;
                                recorder.release(
                                        store.slots(),
                                        lease,
                                        highestStamped[0] == Long.MIN_VALUE
                                                ? lease.floor()
                                                : Instant.ofEpochMilli(highestStamped[0] + 1));
                            } else {
                                held[0] = null; // walk away: the lease expires
                            }
                        } catch (SlotsExhaustedException | LeaseLostException e) {
                            held[0] = null;
                        }
                    });
        }
    }

    /** Waits until the clients have made {@code count} more successful operations. */
    void awaitProgress(long count) {
        long target = operations.get() + count;
        // generous: a soak waits for tens of thousands of operations, and an election stalls
        // everyone for seconds
        await("clients to make progress")
                .atMost(Duration.ofSeconds(Math.max(60, count / 200)))
                .pollInterval(Duration.ofMillis(20))
                .until(() -> operations.get() >= target);
    }

    /**
     * A plain Curator client for a test's own reads and writes, connected before it is returned.
     */
    static CuratorFramework curatorClient(String connectString) throws InterruptedException {
        CuratorFramework c =
                CuratorFrameworkFactory.newClient(
                        connectString, 6000, 3000, new ExponentialBackoffRetry(50, 20));
        c.start();
        if (!c.blockUntilConnected(20, TimeUnit.SECONDS)) {
            c.close();
            throw new IllegalStateException("no connection to " + connectString + " within 20 s");
        }
        return c;
    }

    private void start(String name, Runnable step) {
        Thread t =
                new Thread(
                        () -> {
                            while (!stopping) {
                                try {
                                    step.run();
                                    operations.incrementAndGet();
                                } catch (StoreException | IllegalStateException e) {
                                    failures.incrementAndGet();
                                }
                            }
                        },
                        name);
        t.setDaemon(true);
        threads.add(t);
        t.start();
    }

    /**
     * The values the stores' range writes may have skipped, summed: {unknown outcome (an upper
     * bound), given up by callers, in flight now}.
     */
    long[] rangeWaste() {
        long[] sum = new long[3];
        synchronized (stores) {
            for (Store store : stores) {
                long[] w = StoreInternals.rangeWaste(store);
                for (int i = 0; i < sum.length; i++) {
                    sum[i] += w[i];
                }
            }
        }
        return sum;
    }

    @Override
    public void close() {
        stopping = true;
        for (Thread t : threads) {
            try {
                t.join(30_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        synchronized (stores) {
            stores.forEach(Store::close);
        }
    }
}
