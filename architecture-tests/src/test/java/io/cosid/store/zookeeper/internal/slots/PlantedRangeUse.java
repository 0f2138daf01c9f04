package io.cosid.store.zookeeper.internal.slots;

import io.cosid.store.zookeeper.internal.ranges.ZooKeeperRangeStore;

/** Planted: the slot room using the range room. */
public class PlantedRangeUse {
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
