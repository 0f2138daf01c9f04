package io.cosid.store.benchmarks;

import io.cosid.store.Range;
import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.zookeeper.ZooKeeperStores;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.apache.curator.RetryPolicy;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.atomic.AtomicValue;
import org.apache.curator.framework.recipes.atomic.DistributedAtomicLong;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

/**
 * One client of a shared counter, with its own ZooKeeper session: ours, Curator's DistributedAtomicLong, or
 * the bare versioned setData that is the floor of any compare-and-set counter on ZooKeeper.
 */
abstract class Contender implements AutoCloseable {

    /** The retry policy both ours and DistributedAtomicLong are given, as Curator values and as our options. */
    static final int RETRY_BASE_SLEEP_MS = 1;
    static final int RETRY_MAX_RETRIES = 29;
    static final int RETRY_MAX_SLEEP_MS = 50;

    /** Adds {@code step}: the range [start, end) it took, or null when it gave up (counted, never a value). */
    abstract long[] add(long step) throws Exception;

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
        BARE_SET_DATA("bare setData");

        final String label;

        Kind(String label) {
            this.label = label;
        }
    }

    static Contender open(Kind kind, String connectString, String path) {
        return switch (kind) {
            case OURS -> new Ours(connectString, path);
            case DAL -> new Dal(connectString, path);
            case BARE_SET_DATA -> new BareSetData(connectString, path);
        };
    }

    static RetryPolicy retryPolicy() {
        return new ExponentialBackoffRetry(RETRY_BASE_SLEEP_MS, RETRY_MAX_RETRIES, RETRY_MAX_SLEEP_MS);
    }

    static CuratorFramework curator(String connectString) {
        CuratorFramework client = CuratorFrameworkFactory.builder().connectString(connectString)
                .sessionTimeoutMs(30_000).connectionTimeoutMs(10_000).retryPolicy(retryPolicy()).build();
        client.start();
        try {
            if (!client.blockUntilConnected(30, java.util.concurrent.TimeUnit.SECONDS)) {
                throw new IllegalStateException("no connection to " + connectString);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return client;
    }

    /** Our RangeStore: the path's last segment is the key, under the store's root. */
    static final class Ours extends Contender {
        private final Store store;
        private final String key;

        Ours(String connectString, String key) {
            this.store = openStore(connectString);
            this.key = key;
        }

        static Store openStore(String connectString) {
            return ZooKeeperStores.open(StoreConfig.of("bench", "zookeeper").withTimeout(Duration.ofSeconds(30))
                    .withOption("connectString", connectString)
                    .withOption("root", "/bench")
                    .withOption("sessionTimeout", "30s")
                    .withOption("retry.baseSleepTime", RETRY_BASE_SLEEP_MS + "ms")
                    .withOption("retry.maxRetries", Integer.toString(RETRY_MAX_RETRIES))
                    .withOption("retry.maxSleep", RETRY_MAX_SLEEP_MS + "ms"));
        }

        @Override
        long[] add(long step) {
            Range r = store.ranges().acquire(key, step);
            return new long[] {r.start(), r.end()};
        }

        @Override
        public void close() {
            store.close();
        }
    }

    /** Curator's DistributedAtomicLong, as CosId's ZooKeeper segment distributor uses it. */
    static final class Dal extends Contender {
        private final CuratorFramework client;
        private final DistributedAtomicLong counter;

        Dal(String connectString, String key) {
            this.client = curator(connectString);
            this.counter = new DistributedAtomicLong(client, "/dal/" + key, retryPolicy());
        }

        @Override
        long[] add(long step) throws Exception {
            AtomicValue<Long> v = counter.add(step);
            return v.succeeded() ? new long[] {v.preValue(), v.postValue()} : null;
        }

        @Override
        public void close() {
            client.close();
        }
    }

    /**
     * A versioned setData with the version already known: one write, no read, no retry logic. With one client
     * this is the floor; with several it only stands for the server's raw write cost.
     */
    static final class BareSetData extends Contender {
        private final CuratorFramework client;
        private final String path;
        private int version;
        private long next;

        BareSetData(String connectString, String key) {
            this.client = curator(connectString);
            this.path = "/bare/" + key;
            try {
                client.create().orSetData().creatingParentsIfNeeded().withMode(CreateMode.PERSISTENT)
                        .forPath(path, "0".getBytes(StandardCharsets.UTF_8));
                Stat stat = client.checkExists().forPath(path);
                this.version = stat.getVersion();
            } catch (Exception e) {
                throw new IllegalStateException("cannot create " + path, e);
            }
        }

        @Override
        long[] add(long step) throws Exception {
            ZooKeeper zk = client.getZookeeperClient().getZooKeeper();
            try {
                Stat stat = zk.setData(path, Long.toString(next + step).getBytes(StandardCharsets.UTF_8), version);
                version = stat.getVersion();
                long start = next;
                next += step;
                return new long[] {start, next};
            } catch (KeeperException.BadVersionException e) {
                return null; // another bare writer came first: the floor does not retry
            }
        }

        @Override
        public void close() {
            client.close();
        }
    }
}
