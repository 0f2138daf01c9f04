package io.cosid.store;

import org.jspecify.annotations.Nullable;

/**
 * The backend cannot be reached: a client could not connect, or lost its connection more often than
 * its retry settings allow. Nothing is known to have been written by the failing operation, but a
 * write it sent may have landed; the contract's rules on unknown outcomes apply.
 */
public class StoreUnavailableException extends StoreException {

    /** The backend's address or name, as configured. */
    private final String backend;

    /**
     * Creates the exception.
     *
     * @param backend what could not be reached, e.g. a connect string
     * @param message what happened
     * @param cause the underlying failure, or {@code null}
     */
    public StoreUnavailableException(String backend, String message, @Nullable Throwable cause) {
        super("store backend " + backend + " is unavailable: " + message, cause);
        this.backend = backend;
    }

    /**
     * What could not be reached.
     *
     * @return the backend's address or name
     */
    public String backend() {
        return backend;
    }
}
