package io.cosid.store.tck;

import io.cosid.store.Store;
import io.cosid.store.inmemory.InMemoryStores;

/** Planted violation: the TCK depending on a backend. */
public class PlantedTckDependency {
    Store store() {
        return InMemoryStores.open();
    }
}
