import io.cosid.store.StoreProvider;

/**
 * cosid-store's API: the two stores, their configuration and errors ({@code io.cosid.store}), and
 * the rules every backend applies the same way ({@code io.cosid.store.spi}). JDK only. Backends are
 * found through {@link StoreProvider} services.
 */
module io.cosid.store {
    requires static transitive org.jspecify;

    exports io.cosid.store;
    exports io.cosid.store.spi;

    uses StoreProvider;
}
