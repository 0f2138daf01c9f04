package io.cosid.store;

import org.apache.curator.framework.CuratorFramework;

/** Planted violation: a public API type whose signature exposes Curator. */
public class PlantedCuratorLeak {
    /**
     * Leaks the client.
     *
     * @return nothing useful
     */
    public CuratorFramework client() {
        return null;
    }
}
