package io.cosid.store.zookeeper.internal.connect;

import io.cosid.store.zookeeper.internal.wire.Deadline;

/** Planted: the connect room using the wire room. */
public class PlantedWireUse {
    /**
     * Uses a deadline.
     *
     * @param deadline a deadline
     * @return its hash
     */
    public static int use(Deadline deadline) {
        return deadline.hashCode();
    }
}
