package io.cosid.store.jdbc;

import io.cosid.store.StoreConfig;

/** Planted: store-jdbc's session layer using a store class. */
public class SessionPlantedStoreUse {
    /**
     * Reads a store's options.
     *
     * @param config a configuration
     * @return its options' hash
     */
    public static int options(StoreConfig config) {
        return JdbcOptions.of(config).hashCode();
    }
}
