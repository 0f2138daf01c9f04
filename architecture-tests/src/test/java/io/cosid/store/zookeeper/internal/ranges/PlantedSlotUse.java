package io.cosid.store.zookeeper.internal.ranges;

import io.cosid.store.zookeeper.internal.slots.ZooKeeperSlotLeaseStore;

/** Planted: the range room using the slot room. */
public class PlantedSlotUse {
    /**
     * Uses a slot store.
     *
     * @param store a slot store
     * @return its hash
     */
    public static int use(ZooKeeperSlotLeaseStore store) {
        return store.hashCode();
    }
}
