package com.example.modular;

import io.cosid.store.Range;
import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.Stores;

/** Opens a store by its type, as configuration does: the backend is found as a service. */
public final class App {

    private App() {}

    /** The first range of a fresh in-memory store opened through Stores. */
    public static Range firstRange() {
        try (Store store = Stores.open(StoreConfig.of("modular", "in-memory"))) {
            return store.ranges().acquire("orders", 10);
        }
    }
}
