package io.cosid.store.tck;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;

/**
 * The whole contract (docs/contract.md) for one backend: extend this once and return the backend's
 * fixture; every part of the TCK runs as a {@code @Nested} group whose names read as the
 * specification.
 *
 * <pre>{@code
 * @DisplayName("My backend")
 * class MyBackendTest extends StoreCompatibilityKit {
 *     @Override protected StoreFixture createFixture() { return new MyFixture(); }
 * }
 * }</pre>
 *
 * <p>Tests that need a capability the fixture lacks (a settable clock, tampering with stored data)
 * are skipped, visibly. Each part is also a class of its own ({@link RangeStoreContract}, {@link
 * SlotLeaseStoreContract}, {@link ModelBasedContract}, {@link BadInputContract}) for a backend that
 * wants to run one alone.
 */
public abstract class StoreCompatibilityKit {

    /** Creates the subclass. */
    protected StoreCompatibilityKit() {}

    /**
     * A new fixture: a store factory on an empty backend, closed after each test.
     *
     * @return the fixture
     */
    protected abstract StoreFixture createFixture();

    /** {@link RangeStoreContract} on this kit's backend. */
    @Nested
    @DisplayName("RangeStore")
    class Ranges extends RangeStoreContract {
        @Override
        protected StoreFixture createFixture() {
            return StoreCompatibilityKit.this.createFixture();
        }
    }

    /** {@link SlotLeaseStoreContract} on this kit's backend. */
    @Nested
    @DisplayName("SlotLeaseStore")
    class Slots extends SlotLeaseStoreContract {
        @Override
        protected StoreFixture createFixture() {
            return StoreCompatibilityKit.this.createFixture();
        }
    }

    /** {@link ModelBasedContract} on this kit's backend. */
    @Nested
    @DisplayName("against the reference model")
    class Model extends ModelBasedContract {
        @Override
        protected StoreFixture createFixture() {
            return StoreCompatibilityKit.this.createFixture();
        }
    }

    /** {@link ObservationContract} on this kit's backend. */
    @Nested
    @DisplayName("observation")
    class Observation extends ObservationContract {
        @Override
        protected StoreFixture createFixture() {
            return StoreCompatibilityKit.this.createFixture();
        }
    }

    /** {@link BadInputContract} on this kit's backend. */
    @Nested
    @DisplayName("bad input and corrupt state")
    class BadInput extends BadInputContract {
        @Override
        protected StoreFixture createFixture() {
            return StoreCompatibilityKit.this.createFixture();
        }
    }
}
