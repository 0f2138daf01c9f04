package io.cosid.store.spi;

import io.cosid.store.StoreObserver;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * An observer's events passed on so that a failing observer never fails a store operation: what it
 * throws is logged (the first time as a warning, later at debug level) and otherwise ignored, as
 * {@link StoreObserver} promises.
 */
public final class SafeObserver implements StoreObserver {

    private static final System.Logger LOG = System.getLogger(SafeObserver.class.getName());

    private final StoreObserver observer;
    private final AtomicBoolean warned = new AtomicBoolean();

    /** Whether the observer has an around-hook of its own (else operations skip the hook). */
    private final boolean surrounds;

    private SafeObserver(StoreObserver observer) {
        this.observer = observer;
        this.surrounds = surrounds(observer);
    }

    /**
     * Whether {@code observer} overrides {@link StoreObserver#around}: an observer that does not
     * would only call the operation, so the store calls it directly and saves the guarded call's
     * allocations (docs/performance-history.md, "What the around-hook costs").
     */
    static boolean surrounds(StoreObserver observer) {
        try {
            return observer.getClass()
                            .getMethod("around", OperationStart.class, Supplier.class)
                            .getDeclaringClass()
                    != StoreObserver.class;
        } catch (NoSuchMethodException e) {
            return true; // cannot happen: every observer has it; the safe answer anyway
        }
    }

    /** Whether the observer has an around-hook of its own. */
    boolean surrounds() {
        return surrounds;
    }

    /**
     * {@code observer}, guarded.
     *
     * @param observer the observer
     * @return a guarded observer ({@code observer} itself when it is {@link StoreObserver#NONE} or
     *     already guarded)
     */
    public static StoreObserver of(StoreObserver observer) {
        return observer == NONE || observer instanceof SafeObserver
                ? observer
                : new SafeObserver(observer);
    }

    @Override
    public void opened(String store, String type) {
        try {
            observer.opened(store, type);
        } catch (RuntimeException e) {
            failed(e);
        }
    }

    @Override
    public void closed(String store, String type) {
        try {
            observer.closed(store, type);
        } catch (RuntimeException e) {
            failed(e);
        }
    }

    @Override
    public void operation(OperationEvent event) {
        try {
            observer.operation(event);
        } catch (RuntimeException e) {
            failed(e);
        }
    }

    @Override
    public void failedWrite(FailedWriteEvent event) {
        try {
            observer.failedWrite(event);
        } catch (RuntimeException e) {
            failed(e);
        }
    }

    @Override
    public void connection(ConnectionEvent event) {
        try {
            observer.connection(event);
        } catch (RuntimeException e) {
            failed(e);
        }
    }

    @Override
    public void lease(LeaseEvent event) {
        try {
            observer.lease(event);
        } catch (RuntimeException e) {
            failed(e);
        }
    }

    /**
     * Runs {@code call} through the observer's hook, and holds the hook to its promise: whatever
     * the hook does (throws, skips the call, calls it twice, returns something else), the operation
     * runs exactly once and its own result or failure is what the caller gets.
     */
    @Override
    public <T> T around(OperationStart start, Supplier<T> call) {
        GuardedCall<T> guarded = new GuardedCall<>(call);
        try {
            observer.around(start, guarded);
        } catch (RuntimeException | Error e) {
            if (!guarded.isFailure(e)) {
                failed(e);
            }
        }
        if (!guarded.ran()) {
            failed(new IllegalStateException("its around-hook did not run " + start.operation()));
            return call.get();
        }
        return guarded.outcome();
    }

    private void failed(Throwable e) {
        System.Logger.Level level =
                warned.compareAndSet(false, true)
                        ? System.Logger.Level.WARNING
                        : System.Logger.Level.DEBUG;
        LOG.log(level, "store observer " + observer + " failed; the store carries on", e);
    }

    @Override
    public String toString() {
        return observer.toString();
    }
}
