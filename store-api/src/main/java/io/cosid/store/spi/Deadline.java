package io.cosid.store.spi;

import io.cosid.store.StoreObserver;
import io.cosid.store.StoreTimeoutException;
import io.cosid.store.Ticker;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * The one time budget of a store operation, retries included (docs/contract.md, "Common rules"):
 * every loop that retries within it ends where you can see it, {@code while
 * (deadline.hasTimeLeft())}, and every wait is bounded by {@link #remainingNanos()}.
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

    /**
     * The budget of an operation no observer hears of (opening the store, settling later).
     *
     * @param operation what it is for, as its timeout's message names it
     * @param timeout the budget
     * @param ticker where elapsed time is read
     * @return a budget that starts now
     */
    public static Deadline start(String operation, Duration timeout, Ticker ticker) {
        return new Deadline(operation, null, timeout, ticker);
    }

    /**
     * The budget of one call of the store.
     *
     * @param kind the operation as the store's observer knows it
     * @param operation what it is for, as its timeout's message names it
     * @param timeout the budget
     * @param ticker where elapsed time is read
     * @return a budget that starts now
     */
    public static Deadline start(
            StoreObserver.Operation kind, String operation, Duration timeout, Ticker ticker) {
        return new Deadline(operation, kind, timeout, ticker);
    }

    /**
     * What the budget is for.
     *
     * @return the operation, as its timeout's message names it
     */
    public String operation() {
        return operation;
    }

    /**
     * The store operation this budget is for.
     *
     * @return the operation, or null when it is none of the store's calls
     */
    public StoreObserver.@Nullable Operation kind() {
        return kind;
    }

    /**
     * The whole budget, as configured.
     *
     * @return the timeout the budget started with
     */
    public Duration timeout() {
        return timeout;
    }

    /**
     * What is left of the budget.
     *
     * @return nanoseconds left; zero or less once spent
     */
    public long remainingNanos() {
        return endNanos - ticker.nanos();
    }

    /**
     * Whether any of the budget is left: the condition of every loop that retries within it.
     *
     * @return true while time is left
     */
    public boolean hasTimeLeft() {
        return remainingNanos() > 0;
    }

    /**
     * Throws once the budget is spent.
     *
     * @throws StoreTimeoutException naming the operation and its budget, if no time is left
     */
    public void check() {
        if (remainingNanos() <= 0) {
            throw expired(null);
        }
    }

    /**
     * The operation's timeout.
     *
     * @param cause what was waited for when the budget ran out, if anything
     * @return the exception naming the operation and its budget
     */
    public StoreTimeoutException expired(@Nullable Throwable cause) {
        return new StoreTimeoutException(operation, timeout, cause);
    }

    /**
     * The operation's thread was interrupted while it waited: the interrupt is restored for the
     * caller, and the operation ends as out of time, since it will not wait any longer.
     *
     * @param cause the interrupt
     * @return the exception naming the operation and its budget
     */
    public StoreTimeoutException interrupted(InterruptedException cause) {
        Thread.currentThread().interrupt();
        return expired(cause);
    }
}
