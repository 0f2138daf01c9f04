package io.cosid.store.inmemory;

import io.cosid.store.StoreTimeoutException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Runs one store operation: refuses it after close, and holds the backend's lock for it, waiting at
 * most the store's timeout for the lock.
 */
final class Operations {

    private final InMemoryBackend backend;
    private final String storeName;
    private final Duration timeout;
    private volatile boolean closed;

    Operations(InMemoryBackend backend, String storeName, Duration timeout) {
        this.backend = backend;
        this.storeName = storeName;
        this.timeout = timeout;
    }

    <T> T run(String operation, Supplier<T> body) {
        if (closed) {
            throw new IllegalStateException(
                    "store '" + storeName + "' is closed; cannot " + operation);
        }
        try {
            if (!backend.lock.tryLock(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
                throw new StoreTimeoutException(operation, timeout, null);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreTimeoutException(operation + " (interrupted)", timeout, e);
        }
        try {
            return body.get();
        } finally {
            backend.lock.unlock();
        }
    }

    void close() {
        closed = true;
    }
}
