package io.cosid.store.zookeeper;

import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.StoreProvider;
import io.cosid.store.zookeeper.internal.ZooKeeperStoreAssembly;
import java.util.Set;

/** Provider of type {@value #TYPE}: {@code cosid.stores.<name>.type: zookeeper}. */
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
}
