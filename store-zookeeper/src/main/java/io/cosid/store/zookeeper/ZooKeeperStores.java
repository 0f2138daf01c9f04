package io.cosid.store.zookeeper;

import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.StoreUnavailableException;
import io.cosid.store.zookeeper.internal.ZooKeeperStoreAssembly;
import io.cosid.store.zookeeper.internal.connect.ClientClose;
import io.cosid.store.zookeeper.internal.wire.NodePaths;
import java.time.Duration;
import java.util.Set;
import org.apache.curator.framework.CuratorFramework;

/**
 * The entry point of the ZooKeeper backend.
 *
 * <pre>{@code
 * StoreConfig config = StoreConfig.of("main", "zookeeper")
 *         .withOption("connectString", "zk-1:2181,zk-2:2181");
 * // builds, starts and later closes its client
 * try (Store store = ZooKeeperStores.open(config)) {
 *     Range range = store.ranges().acquire("order-id", 1000);
 * }
 * // a started client the caller owns and closes
 * Store shared = ZooKeeperStores.open(config, curator);
 * }</pre>
 *
 * <p>Options and defaults: {@code connectString} (localhost:2181), {@code sessionTimeout} (60s),
 * {@code connectionTimeout} (15s), {@code blockUntilConnectedWait} (10s), {@code
 * retry.baseSleepTime} (100ms), {@code retry.maxRetries} (5), {@code retry.maxSleep} (500ms),
 * {@code root} (/cosid). With a caller's client only {@code root} and {@code retry.*} apply; the
 * client's own Curator namespace, if any, prefixes the root.
 */
public final class ZooKeeperStores {

    private ZooKeeperStores() {}

    /**
     * The options that configure a client of the store's own ({@code connectString}, {@code
     * sessionTimeout}, {@code connectionTimeout}, {@code blockUntilConnectedWait}, {@code
     * auth.digest}, {@code tls.*}): {@link #open(StoreConfig, CuratorFramework)} refuses them, and
     * a configuration without any of them can use an application's client.
     */
    public static final Set<String> CLIENT_OPTION_KEYS = ZooKeeperStoreAssembly.clientOptionKeys();

    /**
     * Opens a store that builds its own client from the options, waits until it is connected, and
     * closes it on {@link Store#close()}.
     *
     * @param config the store's configuration (type {@code zookeeper})
     * @return the open store
     * @throws IllegalArgumentException naming the key, if an option is unknown or malformed
     * @throws StoreUnavailableException if no connection was made within {@code
     *     blockUntilConnectedWait}
     */
    public static Store open(StoreConfig config) {
        return ZooKeeperStoreAssembly.open(config);
    }

    /**
     * Opens a store on a started client that the caller owns: the store never closes it.
     *
     * @param config the store's configuration; only {@code root} and {@code retry.*} options apply
     * @param client a started CuratorFramework
     * @return the open store
     * @throws IllegalArgumentException naming the key, if an option is unknown, malformed or a
     *     client option; or if the client is not started
     */
    public static Store open(StoreConfig config, CuratorFramework client) {
        return ZooKeeperStoreAssembly.open(config, client);
    }

    /**
     * The names of the nodes a store keeps directly under its root (option {@code root}): what a
     * tool reading other nodes under the same root (CosId's layout) must pass over.
     *
     * @return the node names, without the root
     */
    public static Set<String> rootChildren() {
        return NodePaths.rootChildren();
    }

    /**
     * Closes a Curator client, waiting at most {@code bound} for it. ZooKeeper's client waits a
     * whole session timeout to end its session with a server that accepts connections but never
     * answers; past the bound the close goes on in the background, on daemon threads.
     *
     * @param client the client to close
     * @param bound how long to wait for the close, at least zero
     * @return true if the close finished within the bound
     */
    public static boolean closeClient(CuratorFramework client, Duration bound) {
        return ClientClose.within(client, bound);
    }
}
