package io.cosid.store.micrometer;

import io.cosid.store.Store;
import io.cosid.store.inmemory.InMemoryStores;

/** Planted violation: the Micrometer binding reaching for a backend. */
public class PlantedMicrometerDependency {
    Store store = InMemoryStores.open();
}
