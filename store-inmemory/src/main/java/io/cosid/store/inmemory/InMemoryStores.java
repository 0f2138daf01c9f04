package io.cosid.store.inmemory;

import io.cosid.store.Store;
import java.time.InstantSource;

/**
 * The entry point of the in-memory backend.
 *
 * <pre>{@code
 * try (Store store = InMemoryStores.open()) {
 *     Range range = store.ranges().acquire("order-id", 100);       // [0, 100)
 * }
 *
 * ManualClock clock = ...;                                          // any InstantSource
 * InMemoryBackend server = InMemoryStores.backend(clock);
 * Store a = server.open(), b = server.open();                       // two "processes", one state
 * }</pre>
 */
public final class InMemoryStores {

    private InMemoryStores() {}

    /**
     * Opens a store on a new backend of its own, on the system clock.
     *
     * @return the store
     */
    public static Store open() {
        return InMemoryBackend.create().open();
    }

    /**
     * A new backend on the system clock, for several stores that share state.
     *
     * @return the backend
     */
    public static InMemoryBackend backend() {
        return InMemoryBackend.create();
    }

    /**
     * A new backend on a given clock.
     *
     * @param clock the store's clock
     * @return the backend
     */
    public static InMemoryBackend backend(InstantSource clock) {
        return InMemoryBackend.create(clock);
    }
}
