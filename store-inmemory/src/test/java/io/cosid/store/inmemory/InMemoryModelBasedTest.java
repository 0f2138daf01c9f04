package io.cosid.store.inmemory;

import io.cosid.store.tck.ModelBasedContract;
import io.cosid.store.tck.StoreFixture;
import org.junit.jupiter.api.DisplayName;

@DisplayName("In-memory store against the reference model")
class InMemoryModelBasedTest extends ModelBasedContract {

    @Override
    protected StoreFixture createFixture() {
        return new InMemoryFixture();
    }
}
