package io.cosid.store.zookeeper.internal.wire;

import io.cosid.store.StoreConfig;
import io.cosid.store.StoreObserver;
import io.cosid.store.Ticker;
import io.cosid.store.spi.Deadline;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Duration;

/**
 * Open or closed, and the budget of each operation; shared by both stores of one {@code
 * ZooKeeperStore}.
 */
@Singleton
public final class StoreLifecycle {

    private final String storeName;
    private final Duration timeout;
    private final Ticker ticker;
    private volatile boolean closed;

    @Inject
    StoreLifecycle(StoreConfig config, Ticker ticker) {
        this.storeName = config.name();
        this.timeout = config.timeout();
        this.ticker = ticker;
    }

    /** Where the store reads elapsed time. */
    public Ticker ticker() {
        return ticker;
    }

    /** Starts the budget of something the store does on its own; refuses after close. */
    public Deadline start(String operation) {
        requireOpen(operation);
        return Deadline.start(operation, timeout, ticker);
    }

    /** Starts the budget of one call of the store; refuses after close. */
    public Deadline start(StoreObserver.Operation kind, String operation) {
        requireOpen(operation);
        return Deadline.start(kind, operation, timeout, ticker);
    }

    private void requireOpen(String operation) {
        if (closed) {
            throw new IllegalStateException(
                    "store '" + storeName + "' is closed; cannot " + operation);
        }
    }

    /** The budget of one operation. */
    public Duration timeout() {
        return timeout;
    }

    /** Marks the store closed; returns whether it was open. */
    public boolean close() {
        boolean wasOpen = !closed;
        closed = true;
        return wasOpen;
    }
}
