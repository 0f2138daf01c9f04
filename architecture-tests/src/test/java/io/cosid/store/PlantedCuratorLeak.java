package io.cosid.store;

import org.apache.curator.framework.CuratorFramework;
import org.jspecify.annotations.Nullable;

/** Planted violation: a public API type whose signature exposes Curator. */
public class PlantedCuratorLeak {
    /**
     * Leaks the client.
     *
     * @return nothing useful
     */
    public @Nullable CuratorFramework client() {
        return null;
    }
}
