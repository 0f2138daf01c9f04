package io.cosid.store.planted;

import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.zookeeper.internal.ZooKeeperStoreAssembly;

/** Planted violation: code outside the ZooKeeper backend reaching into its internal package. */
public class PlantedInternalUse {
    Store open() {
        return ZooKeeperStoreAssembly.open(StoreConfig.of("x", "zookeeper"));
    }
}
