package io.cosid.store;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * An operation did not complete within the store's timeout. The outcome of a write may be unknown:
 * a range store then loses that range as a gap; a lease may or may not be held, so the caller must
 * not use it.
 */
public class StoreTimeoutException extends StoreException {

    /** The operation this failure is about. */
    private final String operation;

    /** The timeout this failure is about. */
    private final Duration timeout;

    /**
     * Creates the exception.
     *
     * @param operation what was attempted, with the key, namespace or slot it was about
     * @param timeout the budget that ran out
     * @param cause the last failure seen, or {@code null}
     */
    public StoreTimeoutException(String operation, Duration timeout, @Nullable Throwable cause) {
        super(
                operation
                        + " did not complete within the store's timeout of "
                        + StoreConfig.formatDuration(timeout),
                cause);
        this.operation = operation;
        this.timeout = timeout;
    }

    /**
     * What was attempted.
     *
     * @return the operation, naming what it was about
     */
    public String operation() {
        return operation;
    }

    /**
     * The budget that ran out.
     *
     * @return the store's timeout
     */
    public Duration timeout() {
        return timeout;
    }
}
