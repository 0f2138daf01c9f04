package io.cosid.store.zookeeper;

import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.StoreUnavailableException;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.imps.CuratorFrameworkState;
import org.apache.curator.retry.BoundedExponentialBackoffRetry;

/**
 * The entry point of the ZooKeeper backend.
 *
 * <pre>{@code
 * StoreConfig config = StoreConfig.of("main", "zookeeper").withOption("connectString", "zk-1:2181,zk-2:2181");
 * try (Store store = ZooKeeperStores.open(config)) {        // builds, starts and later closes its client
 *     Range range = store.ranges().acquire("order-id", 1000);
 * }
 * Store shared = ZooKeeperStores.open(config, curator);    // a started client the caller owns and closes
 * }</pre>
 *
 * <p>Options and defaults: {@code connectString} (localhost:2181), {@code sessionTimeout} (60s),
 * {@code connectionTimeout} (15s), {@code blockUntilConnectedWait} (10s), {@code retry.baseSleepTime} (100ms),
 * {@code retry.maxRetries} (5), {@code retry.maxSleep} (500ms), {@code root} (/cosid). With a caller's client
 * only {@code root} and {@code retry.*} apply; the client's own Curator namespace, if any, prefixes the root.
 */
public final class ZooKeeperStores {

    private ZooKeeperStores() {
    }

    /**
     * Opens a store that builds its own client from the options, waits until it is connected, and closes it
     * on {@link Store#close()}.
     *
     * @param config the store's configuration (type {@code zookeeper})
     * @return the open store
     * @throws IllegalArgumentException  naming the key, if an option is unknown or malformed
     * @throws StoreUnavailableException if no connection was made within {@code blockUntilConnectedWait}
     */
    public static Store open(StoreConfig config) {
        ZooKeeperOptions options = ZooKeeperOptions.parse(config, true);
        CuratorFramework client = CuratorFrameworkFactory.builder()
                .connectString(options.connectString())
                .sessionTimeoutMs(millis(options.sessionTimeout()))
                .connectionTimeoutMs(millis(options.connectionTimeout()))
                .retryPolicy(new BoundedExponentialBackoffRetry(millis(options.retryBaseSleep()),
                        millis(options.retryMaxSleep()), options.retryMaxRetries()))
                // the connect string is the operator's; do not let /zookeeper/config rewrite it (NAT, chroot)
                .ensembleTracker(false)
                .build();
        client.start();
        try {
            if (!client.blockUntilConnected(millis(options.blockUntilConnectedWait()), TimeUnit.MILLISECONDS)) {
                throw new StoreUnavailableException(options.connectString(), "no connection within "
                        + options.blockUntilConnectedWait() + " (blockUntilConnectedWait)", null);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            client.close();
            throw new StoreUnavailableException(options.connectString(), "interrupted while connecting", e);
        } catch (RuntimeException e) {
            client.close();
            throw e;
        }
        return DaggerZooKeeperStoreComponent.factory().create(config, options, client, ClientOwnership.OWNED).store();
    }

    /**
     * Opens a store on a started client that the caller owns: the store never closes it.
     *
     * @param config the store's configuration; only {@code root} and {@code retry.*} options apply
     * @param client a started CuratorFramework
     * @return the open store
     * @throws IllegalArgumentException naming the key, if an option is unknown, malformed or a client option;
     *                                  or if the client is not started
     */
    public static Store open(StoreConfig config, CuratorFramework client) {
        ZooKeeperOptions options = ZooKeeperOptions.parse(config, false);
        if (client == null || client.getState() != CuratorFrameworkState.STARTED) {
            throw new IllegalArgumentException("the CuratorFramework passed to ZooKeeperStores.open must be started,"
                    + " got " + (client == null ? "null" : client.getState()));
        }
        return DaggerZooKeeperStoreComponent.factory().create(config, options, client, ClientOwnership.BORROWED).store();
    }

    private static int millis(java.time.Duration d) {
        return (int) Math.min(Integer.MAX_VALUE, d.toMillis());
    }
}
