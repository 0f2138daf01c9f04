package io.cosid.store.zookeeper.internal.wire;

import io.cosid.store.StoreObserver;
import io.cosid.store.StoreTimeoutException;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * The one time budget of a store operation, retries included (docs/contract.md, "Common rules").
 */
public final class Deadline {

    private final String operation;
    private final StoreObserver.@Nullable Operation kind;
    private final Duration timeout;
    private final Ticker ticker;
    private final long endNanos;

    private Deadline(
            String operation,
            StoreObserver.@Nullable Operation kind,
            Duration timeout,
            Ticker ticker) {
        this.operation = operation;
        this.kind = kind;
        this.timeout = timeout;
        this.ticker = ticker;
        this.endNanos = ticker.nanos() + timeout.toNanos();
    }

    /** The budget of an operation no observer hears of (opening the store, settling later). */
    public static Deadline start(String operation, Duration timeout, Ticker ticker) {
        return new Deadline(operation, null, timeout, ticker);
    }

    /** The budget of one call of the store, {@code kind} as its observer knows it. */
    public static Deadline start(
            StoreObserver.Operation kind, String operation, Duration timeout, Ticker ticker) {
        return new Deadline(operation, kind, timeout, ticker);
    }

    public String operation() {
        return operation;
    }

    /** The store operation this budget is for; null when it is none of the store's calls. */
    StoreObserver.@Nullable Operation kind() {
        return kind;
    }

    public long remainingNanos() {
        return endNanos - ticker.nanos();
    }

    /** Whether any of the budget is left: the condition of every loop that retries within it. */
    public boolean hasTimeLeft() {
        return remainingNanos() > 0;
    }

    /** Throws once the budget is spent. */
    void check() {
        if (remainingNanos() <= 0) {
            throw expired(null);
        }
    }

    public StoreTimeoutException expired(@Nullable Throwable cause) {
        return new StoreTimeoutException(operation, timeout, cause);
    }

    /**
     * The operation's thread was interrupted while it waited: the interrupt is restored for the
     * caller, and the operation ends as out of time, since it will not wait any longer.
     */
    public StoreTimeoutException interrupted(InterruptedException cause) {
        Thread.currentThread().interrupt();
        return expired(cause);
    }
}
