package io.cosid.store.zookeeper.internal.wire;

import io.cosid.store.zookeeper.internal.ranges.ZooKeeperRangeStore;

/** Planted: the wire room using a store. */
public class PlantedStoreUse {
    /**
     * Uses a range store.
     *
     * @param store a range store
     * @return its hash
     */
    public static int use(ZooKeeperRangeStore store) {
        return store.hashCode();
    }
}
