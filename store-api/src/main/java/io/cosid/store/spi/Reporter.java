package io.cosid.store.spi;

import io.cosid.store.StoreObserver;
import io.cosid.store.StoreObserver.Operation;
import io.cosid.store.StoreObserver.OperationEvent;
import io.cosid.store.StoreObserver.Outcome;
import java.time.Duration;
import java.util.function.Supplier;

/** Runs one operation and reports it once, with how it ended and how long it took. */
final class Reporter {

    private final String store;
    private final String type;
    private final StoreObserver observer;

    Reporter(String store, String type, StoreObserver observer) {
        this.store = store;
        this.type = type;
        this.observer = observer;
    }

    String store() {
        return store;
    }

    String type() {
        return type;
    }

    StoreObserver observer() {
        return observer;
    }

    /** Runs {@code body} as {@code operation} on {@code subject}, and reports it. */
    <T> T run(Operation operation, String subject, Supplier<T> body) {
        long started = System.nanoTime();
        T result;
        try {
            result = body.get();
        } catch (RuntimeException | Error e) {
            report(operation, Outcome.of(e), started, subject);
            throw e;
        }
        report(operation, Outcome.SUCCESS, started, subject);
        return result;
    }

    private void report(Operation operation, Outcome outcome, long started, String subject) {
        observer.operation(
                new OperationEvent(
                        store,
                        type,
                        operation,
                        outcome,
                        Duration.ofNanos(System.nanoTime() - started),
                        subject == null ? "" : subject));
    }
}
