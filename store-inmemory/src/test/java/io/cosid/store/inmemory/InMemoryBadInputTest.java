package io.cosid.store.inmemory;

import io.cosid.store.tck.BadInputContract;
import io.cosid.store.tck.StoreFixture;
import org.junit.jupiter.api.DisplayName;

@DisplayName("In-memory: bad input and corrupt state")
class InMemoryBadInputTest extends BadInputContract {

    @Override
    protected StoreFixture createFixture() {
        return new InMemoryFixture();
    }
}
