package io.cosid.store.zookeeper.internal;

import org.apache.curator.framework.CuratorFramework;

/** Planted, allowed: a public wiring member of an internal package may take a Curator type. */
public class PlantedInternalWiring {
    /**
     * Wiring.
     *
     * @param client a client
     */
    public static void wire(CuratorFramework client) {}
}
