package io.cosid.store.inmemory;

import io.cosid.store.tck.SlotLeaseStoreContract;
import io.cosid.store.tck.StoreFixture;
import org.junit.jupiter.api.DisplayName;

@DisplayName("In-memory SlotLeaseStore")
class InMemorySlotLeaseStoreTest extends SlotLeaseStoreContract {

    @Override
    protected StoreFixture createFixture() {
        return new InMemoryFixture();
    }
}
