package io.cosid.store.tck;

import io.cosid.store.Store;
import io.cosid.store.StoreObserver;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * How the TCK reaches a backend. A fixture is created for each test and closed after it; it stands
 * for one empty backend (one server, or a fresh root on a shared server).
 */
public interface StoreFixture extends AutoCloseable {

    /**
     * Opens a new store instance on this fixture's backend, as a separate process would (its own
     * client, its own caches). The fixture closes every store it opened when it is closed.
     *
     * @return an open store
     */
    Store openStore();

    /**
     * Opens a new store instance, as {@link #openStore()} does, whose configuration reports to
     * {@code observer} ({@link io.cosid.store.StoreConfig#withObserver}), when the backend can be
     * opened so.
     *
     * @param observer the observer
     * @return the store, closed with the fixture; empty when the fixture cannot attach an observer
     */
    default Optional<Store> openObservedStore(StoreObserver observer) {
        return Optional.empty();
    }

    /**
     * The store's clock now (for ZooKeeper, the mtime of a fresh write).
     *
     * @return the store's now
     */
    Instant storeNow();

    /**
     * The store's clock, when tests may set it.
     *
     * @return the manual clock, or empty when the backend runs on real time
     */
    default Optional<ManualClock> manualClock() {
        return Optional.empty();
    }

    /**
     * Raw access to stored data, when the backend allows tests to plant corrupt data.
     *
     * @return the tampering capability, or empty
     */
    default Optional<Tampering> tampering() {
        return Optional.empty();
    }

    /**
     * A ttl short enough for expiry tests on real time, long enough that a lease is not lost while
     * the test works with it.
     *
     * @return the ttl expiry tests use when the clock is real
     */
    default Duration shortTtl() {
        return Duration.ofMillis(400);
    }

    /** Closes every store this fixture opened and releases the backend. */
    @Override
    void close();
}
