package io.cosid.store;

import org.jspecify.annotations.Nullable;

/**
 * The root of every failure a store reports, other than bad arguments ({@link
 * IllegalArgumentException}) and use after close ({@link IllegalStateException}). Unchecked:
 * callers catch what they can act on.
 *
 * <p>Each subtype carries the key, namespace or slot it is about.
 */
public class StoreException extends RuntimeException {

    /**
     * Creates an exception.
     *
     * @param message what went wrong, naming what it is about
     */
    public StoreException(String message) {
        super(message);
    }

    /**
     * Creates an exception with a cause.
     *
     * @param message what went wrong, naming what it is about
     * @param cause the underlying failure
     */
    public StoreException(String message, @Nullable Throwable cause) {
        super(message, cause);
    }
}
