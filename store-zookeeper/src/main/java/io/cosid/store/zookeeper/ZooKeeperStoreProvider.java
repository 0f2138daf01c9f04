package io.cosid.store.zookeeper;

import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.StoreProvider;
import io.cosid.store.zookeeper.internal.ZooKeeperStoreAssembly;
import java.util.Optional;
import java.util.Set;
import org.apache.curator.framework.CuratorFramework;

/**
 * Provider of type {@value #TYPE}: {@code cosid.stores.<name>.type: zookeeper}, on a client of its
 * own or on the application's {@code CuratorFramework}.
 */
public final class ZooKeeperStoreProvider implements StoreProvider {

    /** The type name of this backend. */
    public static final String TYPE = ZooKeeperStoreAssembly.TYPE;

    /** Creates the provider; {@link java.util.ServiceLoader} calls this. */
    public ZooKeeperStoreProvider() {}

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public Set<String> optionKeys() {
        return ZooKeeperStoreAssembly.optionKeys();
    }

    @Override
    public Store open(StoreConfig config) {
        return ZooKeeperStores.open(config);
    }

    /** The application's {@code CuratorFramework}. */
    @Override
    public Optional<Class<?>> applicationClientType() {
        return Optional.of(CuratorFramework.class);
    }

    /**
     * When the configuration gives any option of a client of its own ({@code connectString}...).
     */
    @Override
    public boolean connectsByItself(StoreConfig config) {
        return config.options().keySet().stream()
                .anyMatch(ZooKeeperStores.CLIENT_OPTION_KEYS::contains);
    }

    @Override
    public Store open(StoreConfig config, Object client) {
        if (!(client instanceof CuratorFramework curator)) {
            throw new IllegalArgumentException(
                    "a ZooKeeper store opens on a CuratorFramework, not on "
                            + client.getClass().getName());
        }
        return ZooKeeperStores.open(config.withOptionKeysAs(optionKeys()), curator);
    }
}
