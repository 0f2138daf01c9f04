package io.cosid.store.cli;

import io.cosid.store.StoreConfig;
import io.cosid.store.zookeeper.ZooKeeperStores;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;

/** A read-only Curator session on the ZooKeeper where CosId's own backend kept its nodes. */
final class CosIdZooKeeper implements AutoCloseable {

    private final CuratorFramework client;

    private CosIdZooKeeper(CuratorFramework client) {
        this.client = client;
    }

    /**
     * Connects, waiting at most {@code wait} for the first connection.
     *
     * @throws ExitCodes.Refused if no connection came within the wait
     */
    static CosIdZooKeeper connect(String connectString, Duration wait) {
        CuratorFramework client =
                CuratorFrameworkFactory.builder()
                        .connectString(connectString)
                        .connectionTimeoutMs((int) Math.min(Integer.MAX_VALUE, wait.toMillis()))
                        .retryPolicy(new RetryNTimes(3, 200))
                        .build();
        client.start();
        boolean connected;
        try {
            connected = client.blockUntilConnected((int) wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            connected = false;
        }
        if (!connected) {
            // never connected: no session to end, so no reason to wait for the close
            ZooKeeperStores.closeClient(client, Duration.ofMillis(100));
            throw new ExitCodes.Refused(
                    ExitCodes.FAILED,
                    "could not connect to CosId's ZooKeeper at "
                            + connectString
                            + " within "
                            + StoreConfig.formatDuration(wait)
                            + " (--connect-wait); nothing was written");
        }
        return new CosIdZooKeeper(client);
    }

    /**
     * Reads CosId's layout under {@code root}, passing over the root's children named in {@code
     * passOver} (the target store's own nodes).
     */
    CosIdZooKeeperLayout read(String root, Set<String> passOver) {
        try {
            return CosIdZooKeeperLayout.read(client, root, passOver);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(
                    "could not read CosId's nodes under " + root + ": " + e, e);
        }
    }

    /** Closes the session, waiting at most a second for a server that does not answer. */
    @Override
    public void close() {
        ZooKeeperStores.closeClient(client, Duration.ofSeconds(1));
    }
}
