package io.cosid.store.cosid;

import io.cosid.store.Store;
import io.cosid.store.inmemory.InMemoryStores;

/** Planted violation: the CosId integration reaching for a backend. */
public class PlantedCosIdDependency {
    Store store = InMemoryStores.open();
}
