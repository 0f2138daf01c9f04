package com.example;

import io.cosid.store.Store;
import io.cosid.store.inmemory.InMemoryBackend;
import io.cosid.store.inmemory.InMemoryStores;
import io.cosid.store.tck.RangeStoreContract;
import io.cosid.store.tck.StoreFixture;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A user running the TCK from the jar with a fixture of their own (no tampering: those tests skip).
 */
class ConsumerRangeStoreContractTest extends RangeStoreContract {

    @Override
    protected StoreFixture createFixture() {
        InMemoryBackend backend = InMemoryStores.backend();
        List<Store> opened = new ArrayList<>();
        return new StoreFixture() {
            @Override
            public Store openStore() {
                Store store = backend.open();
                opened.add(store);
                return store;
            }

            @Override
            public Instant storeNow() {
                return backend.clock().instant();
            }

            @Override
            public void close() {
                opened.forEach(Store::close);
            }
        };
    }
}
