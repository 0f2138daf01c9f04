package io.cosid.store.planted.backend;

import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.StoreProvider;
import io.cosid.store.inmemory.InMemoryStores;
import java.util.Set;

/**
 * Planted violation: a new backend (a package holding a StoreProvider) that opens its stores
 * through another backend's classes.
 */
public class PlantedBackendProvider implements StoreProvider {
    @Override
    public String type() {
        return "planted";
    }

    @Override
    public Set<String> optionKeys() {
        return Set.of();
    }

    @Override
    public Store open(StoreConfig config) {
        return InMemoryStores.open();
    }
}
