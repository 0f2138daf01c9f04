import io.cosid.store.StoreProvider;
import io.cosid.store.inmemory.InMemoryStoreProvider;

/**
 * cosid-store's in-memory backend, the executable specification: opened by type {@code in-memory}
 * through {@code Stores}, or directly through {@code InMemoryStores}. JDK only.
 */
module io.cosid.store.inmemory {
    requires transitive io.cosid.store;
    requires static transitive org.jspecify;

    exports io.cosid.store.inmemory;

    provides StoreProvider with
            InMemoryStoreProvider;
}
