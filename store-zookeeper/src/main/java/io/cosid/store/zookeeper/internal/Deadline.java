package io.cosid.store.zookeeper.internal;

import io.cosid.store.StoreTimeoutException;
import java.time.Duration;

/**
 * The one time budget of a store operation, retries included (docs/contract.md, "Common rules").
 */
final class Deadline {

    private final String operation;
    private final Duration timeout;
    private final long endNanos;

    private Deadline(String operation, Duration timeout) {
        this.operation = operation;
        this.timeout = timeout;
        this.endNanos = System.nanoTime() + timeout.toNanos();
    }

    static Deadline start(String operation, Duration timeout) {
        return new Deadline(operation, timeout);
    }

    String operation() {
        return operation;
    }

    long remainingNanos() {
        return endNanos - System.nanoTime();
    }

    /** Whether any of the budget is left: the condition of every loop that retries within it. */
    boolean hasTimeLeft() {
        return remainingNanos() > 0;
    }

    /** Throws once the budget is spent. */
    void check() {
        if (remainingNanos() <= 0) {
            throw expired(null);
        }
    }

    StoreTimeoutException expired(Throwable cause) {
        return new StoreTimeoutException(operation, timeout, cause);
    }

    /**
     * The operation's thread was interrupted while it waited: the interrupt is restored for the
     * caller, and the operation ends as out of time, since it will not wait any longer.
     */
    StoreTimeoutException interrupted(InterruptedException cause) {
        Thread.currentThread().interrupt();
        return expired(cause);
    }
}
