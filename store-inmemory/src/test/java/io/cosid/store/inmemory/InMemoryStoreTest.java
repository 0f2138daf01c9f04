package io.cosid.store.inmemory;

import io.cosid.store.tck.StoreCompatibilityKit;
import io.cosid.store.tck.StoreFixture;
import org.junit.jupiter.api.DisplayName;

@DisplayName("In-memory store: the contract")
class InMemoryStoreTest extends StoreCompatibilityKit {

    @Override
    protected StoreFixture createFixture() {
        return new InMemoryFixture();
    }
}
