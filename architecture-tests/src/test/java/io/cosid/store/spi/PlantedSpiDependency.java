package io.cosid.store.spi;

import io.cosid.store.inmemory.InMemoryStores;

/** A planted violation: the backends' shared rules reaching into a backend. */
public class PlantedSpiDependency {

    Object open() {
        return InMemoryStores.open();
    }
}
