package io.cosid.store.benchmarks;

import io.cosid.store.Range;
import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.zookeeper.ZooKeeperStores;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.curator.RetryPolicy;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.atomic.AtomicValue;
import org.apache.curator.framework.recipes.atomic.DistributedAtomicLong;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

/**
 * One client of a shared counter, with its own ZooKeeper session: ours, Curator's
 * DistributedAtomicLong, the bare versioned setData that is the floor of any compare-and-set
 * counter on ZooKeeper, or the bare hand-off of turns between sessions ({@link BareHandOff}).
 */
abstract class Contender implements AutoCloseable {

    /**
     * A retry policy, given to ours (as options) and to DistributedAtomicLong (as a Curator policy)
     * alike. Ours applies it to connection problems only (contention has its own backoff);
     * DistributedAtomicLong also sleeps by it after every lost compare-and-set.
     */
    record Policy(String name, int baseSleepMs, int maxRetries, int maxSleepMs) {

        /**
         * Our store's defaults: retry.baseSleepTime=100ms, retry.maxRetries=5,
         * retry.maxSleep=500ms.
         */
        static final Policy DEFAULT =
                new Policy("default policy: 100 ms base, 5 retries, 500 ms cap", 100, 5, 500);

        /** As kind to DistributedAtomicLong as a policy can be: sleeps of a millisecond or two. */
        static final Policy FAST =
                new Policy("fast policy: 1 ms base, 29 retries, 50 ms cap", 1, 29, 50);

        /**
         * No sleep at all: a lost compare-and-set is read and tried again at once (29 times at
         * most), plain compare-and-set with retries.
         */
        static final Policy NONE = new Policy("no sleep: retries at once, 29 at most", 0, 29, 0);

        RetryPolicy curator() {
            return new ExponentialBackoffRetry(baseSleepMs, maxRetries, maxSleepMs);
        }
    }

    /**
     * Adds {@code step}: the range [start, end) it took, or null when it gave up (counted, never a
     * value).
     */
    abstract long @Nullable [] add(long step) throws Exception;

    void closeQuietly() {
        try {
            close();
        } catch (Exception e) {
            System.err.println("closing a contender failed: " + e);
        }
    }

    /** Which contender this is, as the table names it. */
    enum Kind {
        OURS("cosid-store"),
        DAL("DistributedAtomicLong"),
        BARE_SET_DATA("bare setData"),
        BARE_SET_DATA_ASYNC("bare setData, asynchronous API"),
        BARE_GUARDED_MULTI("bare multi: setData and a check of another node");

        final String label;

        Kind(String label) {
            this.label = label;
        }
    }

    static Contender open(Kind kind, String connectString, String path, Policy policy) {
        return switch (kind) {
            case OURS -> new Ours(connectString, path, policy);
            case DAL -> new Dal(connectString, path, policy);
            case BARE_SET_DATA -> new BareSetData(connectString, path, policy, false);
            case BARE_SET_DATA_ASYNC -> new BareSetData(connectString, path, policy, true);
            case BARE_GUARDED_MULTI -> new BareGuardedMulti(connectString, path, policy);
        };
    }

    static CuratorFramework curator(String connectString, Policy policy) {
        CuratorFramework client =
                CuratorFrameworkFactory.builder()
                        .connectString(connectString)
                        .sessionTimeoutMs(30_000)
                        .connectionTimeoutMs(10_000)
                        .retryPolicy(policy.curator())
                        .build();
        client.start();
        try {
            if (!client.blockUntilConnected(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("no connection to " + connectString);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return client;
    }

    /**
     * Our RangeStore: the path's last segment is the key, under the store's root. Either with a
     * store (and so a session) of its own, or as one of several threads sharing a store, whose
     * acquires then coalesce.
     */
    static final class Ours extends Contender {
        private final Store store;
        private final String key;
        private final boolean ownsStore;

        Ours(String connectString, String key, Policy policy) {
            this(openStore(connectString, policy), key, true);
        }

        Ours(Store store, String key, boolean ownsStore) {
            this.store = store;
            this.key = key;
            this.ownsStore = ownsStore;
        }

        static Store openStore(String connectString, Policy policy) {
            return ZooKeeperStores.open(
                    StoreConfig.of("bench", "zookeeper")
                            .withTimeout(Duration.ofSeconds(30))
                            .withOption("connectString", connectString)
                            .withOption("root", "/bench")
                            .withOption("sessionTimeout", "30s")
                            .withOption("retry.baseSleepTime", policy.baseSleepMs() + "ms")
                            .withOption("retry.maxRetries", Integer.toString(policy.maxRetries()))
                            .withOption("retry.maxSleep", policy.maxSleepMs() + "ms"));
        }

        /** The store this contender acquires with. */
        Store store() {
            return store;
        }

        @Override
        long[] add(long step) {
            Range r = store.ranges().acquire(key, step);
            return new long[] {r.start(), r.end()};
        }

        @Override
        public void close() {
            if (ownsStore) {
                store.close(); // a shared store is closed by whoever opened it
            }
        }
    }

    /** Curator's DistributedAtomicLong, as CosId's ZooKeeper segment distributor uses it. */
    static final class Dal extends Contender {
        private final CuratorFramework client;
        private final DistributedAtomicLong counter;

        Dal(String connectString, String key, Policy policy) {
            this.client = curator(connectString, policy);
            this.counter = new DistributedAtomicLong(client, "/dal/" + key, policy.curator());
        }

        @Override
        long @Nullable [] add(long step) throws Exception {
            AtomicValue<Long> v = counter.add(step);
            return v.succeeded() ? new long[] {v.preValue(), v.postValue()} : null;
        }

        @Override
        public void close() {
            client.close();
        }
    }

    /**
     * A versioned setData with the version already known: one write, no read, no retry logic. With
     * one client this is the floor; with several it only stands for the server's raw write cost.
     *
     * <p>Synchronous by default, the tightest floor: the ZooKeeper client's I/O thread wakes the
     * caller directly. The asynchronous variant waits for its callback as the store does (the store
     * needs it to pipeline requests and to bound each wait by the operation's budget, which the
     * synchronous API cannot): there the client's event thread runs the callback, one more thread
     * hand-off per round trip.
     */
    static final class BareSetData extends Contender {
        private final CuratorFramework client;
        private final String path;
        private final boolean async;
        private int version;
        private long next;

        BareSetData(String connectString, String key, Policy policy, boolean async) {
            this.async = async;
            this.client = curator(connectString, policy);
            this.path = "/bare/" + key;
            try {
                client.create()
                        .orSetData()
                        .creatingParentsIfNeeded()
                        .withMode(CreateMode.PERSISTENT)
                        .forPath(path, "0".getBytes(StandardCharsets.UTF_8));
                Stat stat = client.checkExists().forPath(path);
                this.version = stat.getVersion();
            } catch (Exception e) {
                throw new IllegalStateException("cannot create " + path, e);
            }
        }

        @Override
        long @Nullable [] add(long step) throws Exception {
            ZooKeeper zk = client.getZookeeperClient().getZooKeeper();
            try {
                byte[] data = Long.toString(next + step).getBytes(StandardCharsets.UTF_8);
                Stat stat = async ? setDataAsync(zk, data) : zk.setData(path, data, version);
                version = stat.getVersion();
                long start = next;
                next += step;
                return new long[] {start, next};
            } catch (KeeperException.BadVersionException e) {
                return null; // another bare writer came first: the floor does not retry
            }
        }

        private Stat setDataAsync(ZooKeeper zk, byte[] data) throws Exception {
            CompletableFuture<Stat> reply = new CompletableFuture<>();
            zk.setData(
                    path,
                    data,
                    version,
                    (rc, p, ctx, stat) -> {
                        if (rc == KeeperException.Code.OK.intValue()) {
                            reply.complete(stat);
                        } else {
                            reply.completeExceptionally(
                                    KeeperException.create(KeeperException.Code.get(rc), p));
                        }
                    },
                    null);
            try {
                return reply.get(30, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                throw (Exception) e.getCause();
            }
        }

        @Override
        public void close() {
            client.close();
        }
    }

    /**
     * What our uncontended write is without the store around it: one synchronous multi of a
     * versioned {@code setData} and a check of a second node's version (our range write checks the
     * key's line). Beside bare {@code setData} it prices the multi; beside ours, the store.
     */
    static final class BareGuardedMulti extends Contender {
        private final CuratorFramework client;
        private final String path;
        private final String guard;
        private int version;
        private int guardVersion;
        private long next;

        BareGuardedMulti(String connectString, String key, Policy policy) {
            this.client = curator(connectString, policy);
            this.path = "/bare-multi/" + key;
            this.guard = "/bare-multi/" + key + "-guard";
            try {
                for (String p : List.of(path, guard)) {
                    client.create()
                            .orSetData()
                            .creatingParentsIfNeeded()
                            .withMode(CreateMode.PERSISTENT)
                            .forPath(p, "0".getBytes(StandardCharsets.UTF_8));
                }
                this.version = client.checkExists().forPath(path).getVersion();
                this.guardVersion = client.checkExists().forPath(guard).getVersion();
            } catch (Exception e) {
                throw new IllegalStateException("cannot create " + path, e);
            }
        }

        @Override
        long @Nullable [] add(long step) throws Exception {
            ZooKeeper zk = client.getZookeeperClient().getZooKeeper();
            byte[] data = Long.toString(next + step).getBytes(StandardCharsets.UTF_8);
            List<OpResult> results;
            try {
                results =
                        zk.multi(
                                List.of(
                                        Op.setData(path, data, version),
                                        Op.check(guard, guardVersion)));
            } catch (KeeperException.BadVersionException e) {
                return null;
            }
            version = ((OpResult.SetDataResult) results.get(0)).getStat().getVersion();
            long start = next;
            next += step;
            return new long[] {start, next};
        }

        @Override
        public void close() {
            client.close();
        }
    }

    /**
     * The barest turn-taking a compare-and-set counter across sessions can do, with no store: N
     * sessions on one node, session i writing the versions congruent to i mod N. Each waits for an
     * {@code exists} watch on the node and then sends its versioned {@code setData} at once at the
     * version it now knows, with no read in between. Its rate is what handing the node from one
     * session to the next costs on this machine: the bound of turns that each wait for the write
     * before them (a writer that sent ahead of it, pipelined, could pass it).
     *
     * <p>A range is implied by the version written ({@code (version - base) * step}), since only
     * these writers write the node. A turn that has not come within a second (the others stopped at
     * the run's end) counts as given up.
     */
    static final class BareHandOff extends Contender {
        private final CuratorFramework client;
        private final String path;
        private final int turn;
        private final int of;
        private final int base;

        private BareHandOff(CuratorFramework client, String path, int turn, int of, int base) {
            this.client = client;
            this.path = path;
            this.turn = turn;
            this.of = of;
            this.base = base;
        }

        /** {@code sessions} hand-off writers of a fresh node for {@code key}. */
        static List<Contender> open(String connectString, String key, Policy policy, int sessions)
                throws Exception {
            String path = "/handoff/" + key;
            List<Contender> writers = new ArrayList<>();
            try {
                for (int i = 0; i < sessions; i++) {
                    CuratorFramework client = curator(connectString, policy);
                    writers.add(new BareHandOff(client, path, i, sessions, base(client, path, i)));
                }
            } catch (Exception e) {
                writers.forEach(Contender::closeQuietly); // the sessions opened so far
                throw e;
            }
            return writers;
        }

        /** The node's version before any turn; the first writer creates the node. */
        private static int base(CuratorFramework client, String path, int turn) throws Exception {
            if (turn == 0) {
                client.create()
                        .orSetData()
                        .creatingParentsIfNeeded()
                        .withMode(CreateMode.PERSISTENT)
                        .forPath(path, new byte[0]);
            }
            return client.checkExists().forPath(path).getVersion();
        }

        @Override
        long @Nullable [] add(long step) throws Exception {
            ZooKeeper zk = client.getZookeeperClient().getZooKeeper();
            int version = -1;
            while (version < 0) {
                CompletableFuture<Void> changed = new CompletableFuture<>();
                Stat seen = zk.exists(path, e -> changed.complete(null));
                if (Math.floorMod(seen.getVersion() - base, of) == turn) {
                    version = seen.getVersion();
                } else {
                    try {
                        changed.get(1, TimeUnit.SECONDS);
                    } catch (TimeoutException e) {
                        return null;
                    }
                    int next = seen.getVersion() + 1; // one write happened: no read needed
                    if (Math.floorMod(next - base, of) == turn) {
                        version = next;
                    }
                }
            }
            try {
                zk.setData(path, new byte[0], version);
            } catch (KeeperException.BadVersionException e) {
                return null; // more than one write happened meanwhile: not this writer's turn
            }
            long start = (version - base) * step;
            return new long[] {start, start + step};
        }

        @Override
        public void close() {
            client.close();
        }
    }
}
