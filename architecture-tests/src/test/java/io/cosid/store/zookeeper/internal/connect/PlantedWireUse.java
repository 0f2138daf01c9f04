package io.cosid.store.zookeeper.internal.connect;

import io.cosid.store.zookeeper.internal.wire.NodePaths;

/** Planted: the connect room using the wire room. */
public class PlantedWireUse {
    /**
     * Uses the node layout.
     *
     * @param paths the layout
     * @return its hash
     */
    public static int use(NodePaths paths) {
        return paths.hashCode();
    }
}
