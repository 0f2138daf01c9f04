package io.cosid.store.inmemory;

import io.cosid.store.tck.RangeStoreContract;
import io.cosid.store.tck.StoreFixture;
import org.junit.jupiter.api.DisplayName;

@DisplayName("In-memory RangeStore")
class InMemoryRangeStoreTest extends RangeStoreContract {

    @Override
    protected StoreFixture createFixture() {
        return new InMemoryFixture();
    }
}
