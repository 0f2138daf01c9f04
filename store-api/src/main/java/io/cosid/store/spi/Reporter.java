package io.cosid.store.spi;

import io.cosid.store.StoreObserver;
import io.cosid.store.StoreObserver.Operation;
import io.cosid.store.StoreObserver.OperationEvent;
import io.cosid.store.StoreObserver.OperationStart;
import io.cosid.store.StoreObserver.Outcome;
import java.time.Duration;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/** Runs one operation and reports it once, with how it ended and how long it took. */
final class Reporter {

    private final String store;
    private final String type;
    private final StoreObserver observer;

    /** Whether operations run inside the observer's around-hook: only when it has one. */
    private final boolean surrounded;

    Reporter(String store, String type, StoreObserver observer) {
        this.store = store;
        this.type = type;
        this.observer = observer;
        this.surrounded = observer instanceof SafeObserver safe && safe.surrounds();
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

    /**
     * Runs {@code body} as {@code operation} on {@code subject} inside the observer's around-hook,
     * and reports it there: {@code body} may report lease events of its own, which then fall inside
     * the hook too.
     */
    <T> T run(Operation operation, @Nullable String subject, Supplier<T> body) {
        // a null key or namespace is the caller's bad input, which the store refuses: reported as
        // about nothing
        String about = subject == null ? "" : subject;
        if (!surrounded) {
            return timed(operation, about, body);
        }
        return observer.around(
                new OperationStart(store, type, operation, about),
                () -> timed(operation, about, body));
    }

    private <T> T timed(Operation operation, String subject, Supplier<T> body) {
        long started = System.nanoTime();
        T result;
        try {
            result = body.get();
        } catch (RuntimeException | Error e) {
            failed(operation, subject, started, e);
            throw e;
        }
        succeeded(operation, subject, started);
        return result;
    }

    /** Reports {@code operation}, begun at {@code started} (System.nanoTime), as a success. */
    private void succeeded(Operation operation, String subject, long started) {
        report(operation, Outcome.SUCCESS, started, subject, null);
    }

    /** Reports {@code operation}, begun at {@code started}, as ended by {@code failure}. */
    private void failed(Operation operation, String subject, long started, Throwable failure) {
        report(operation, Outcome.of(failure), started, subject, failure);
    }

    private void report(
            Operation operation,
            Outcome outcome,
            long started,
            String subject,
            @Nullable Throwable failure) {
        long ended = System.nanoTime();
        observer.operation(
                new OperationEvent(
                        store,
                        type,
                        operation,
                        outcome,
                        Duration.ofNanos(ended - started),
                        subject,
                        failure));
    }
}
