package com.example.modular;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cosid.store.Stores;
import io.cosid.store.inmemory.InMemoryStores;
import org.junit.jupiter.api.Test;

class AppTest {

    @Test
    void storesAreNamedModules() {
        assertEquals("io.cosid.store", Stores.class.getModule().getName());
        assertEquals("io.cosid.store.inmemory", InMemoryStores.class.getModule().getName());
        assertEquals("com.example.modular", App.class.getModule().getName());
    }

    @Test
    void inMemoryProviderFoundThroughItsModule() {
        assertTrue(Stores.types().contains("in-memory"));
        assertEquals(0, App.firstRange().start());
        assertEquals(10, App.firstRange().end());
    }
}
