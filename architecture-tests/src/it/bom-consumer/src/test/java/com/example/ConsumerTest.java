package com.example;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.cosid.store.Range;
import io.cosid.store.Store;
import io.cosid.store.inmemory.InMemoryStores;
import org.junit.jupiter.api.Test;

/** What a user's unit test does with the in-memory store. */
class ConsumerTest {

    @Test
    void acquiresRanges() {
        try (Store store = InMemoryStores.open()) {
            assertEquals(new Range("orders", 0, 100), store.ranges().acquire("orders", 100));
            assertEquals(new Range("orders", 100, 200), store.ranges().acquire("orders", 100));
        }
    }
}
