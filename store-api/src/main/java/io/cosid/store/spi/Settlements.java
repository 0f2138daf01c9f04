package io.cosid.store.spi;

import io.cosid.store.StoreException;
import io.cosid.store.StoreTimeoutException;
import io.cosid.store.StoreUnavailableException;
import io.cosid.store.Ticker;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * Work a store finishes after it answered its caller (docs/contract.md, "Timed-out calls leave
 * nothing held"): an acquire that ran out of time after its write may have landed leaves a lease
 * nobody holds, and a release that ran out of time leaves a slot held that its holder gave up. Each
 * is settled here, in the background, so that the caller still gets its answer on time and the slot
 * is free again long before its ttl when the store's server comes back.
 *
 * <p>The one rule: a settlement is worth trying for the lease's ttl (after it the slot is free
 * anyway), at least the store's timeout; each attempt gets at most one store timeout of it; an
 * attempt that is not settled yet, or could not reach the store in time ({@link
 * StoreTimeoutException}, {@link StoreUnavailableException}), is tried again after a quarter of the
 * store's timeout; any other answer ends it (an attempt takes a lease lost as settled: another term
 * started, nothing is left to finish). One daemon thread per store, named after it and started with
 * its first settlement (most stores never need one); {@link #close} waits for what is queued at
 * most one store timeout. What happens is written to the store's {@link StoreLog}.
 */
public final class Settlements {

    /** One attempt at settling. */
    @FunctionalInterface
    public interface Attempt {
        /**
         * Tries once.
         *
         * @param deadline this attempt's budget
         * @return true once settled (including: nothing was left to settle), false to try again
         * @throws StoreTimeoutException if the store did not answer in time: tried again while the
         *     budget lasts
         * @throws StoreUnavailableException likewise, if the store could not be reached
         */
        boolean settle(Deadline deadline);
    }

    private final String store;
    private final Duration timeout;
    private final Ticker ticker;
    private final StoreLog log;
    private @Nullable ScheduledExecutorService executor;
    private boolean closed;

    /**
     * The settlements of one store.
     *
     * @param store the store's name, for its thread and its log lines
     * @param timeout the store's timeout
     * @param ticker where elapsed time is read
     * @param log the store's log
     */
    public Settlements(String store, Duration timeout, Ticker ticker, StoreLog log) {
        this.store = store;
        this.timeout = timeout;
        this.ticker = ticker;
        this.log = log;
    }

    /**
     * Queues a settlement.
     *
     * @param what what it settles, for its budget's messages and the log
     * @param worthFor how long settling is worth trying (the lease's ttl)
     * @param attempt one try, given its own budget
     */
    public void later(String what, Duration worthFor, Attempt attempt) {
        Duration budget = worthFor.compareTo(timeout) > 0 ? worthFor : timeout;
        Deadline whole = Deadline.start(what, budget, ticker);
        ScheduledExecutorService running = executor();
        try {
            running.execute(() -> attempt(running, whole, attempt));
        } catch (RejectedExecutionException e) {
            log.settlementAbandoned(store, what, "the store is closed");
        }
    }

    /** One attempt, and the next one queued if it did not settle and time is left. */
    private void attempt(ScheduledExecutorService running, Deadline whole, Attempt attempt) {
        long slice = Math.min(timeout.toNanos(), whole.remainingNanos());
        String what = whole.operation();
        try {
            if (slice > 0
                    && attempt.settle(Deadline.start(what, Duration.ofNanos(slice), ticker))) {
                return;
            }
        } catch (StoreTimeoutException | StoreUnavailableException e) {
            log.settlementRetried(store, what, String.valueOf(e.getMessage()));
        } catch (StoreException e) {
            log.settlementAbandoned(store, what, String.valueOf(e.getMessage()));
            return;
        } catch (IllegalStateException e) {
            log.settlementAbandoned(store, what, "the store is closed");
            return;
        } catch (RuntimeException e) {
            log.settlementFailed(store, what, e);
            return;
        }
        if (!whole.hasTimeLeft()) {
            log.settlementAbandoned(store, what, "not settled within " + budget(whole));
            return;
        }
        try {
            var unused =
                    running.schedule(
                            () -> attempt(running, whole, attempt),
                            Math.max(10, timeout.toMillis() / 4),
                            TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            log.settlementAbandoned(store, what, "the store closed first");
        }
    }

    private static String budget(Deadline whole) {
        return StoreLog.duration(whole.timeout());
    }

    /** The thread settling, started with the first settlement. */
    private synchronized ScheduledExecutorService executor() {
        if (executor == null) {
            executor =
                    Executors.newSingleThreadScheduledExecutor(
                            r -> {
                                Thread t = new Thread(r, "cosid-store-settle-" + store);
                                t.setDaemon(true);
                                return t;
                            });
            if (closed) {
                executor.shutdown();
            }
        }
        return executor;
    }

    /**
     * Lets queued settlements finish, waiting at most one store timeout; later ones are refused.
     */
    public void close() {
        ScheduledExecutorService running;
        synchronized (this) {
            closed = true;
            running = executor;
        }
        if (running == null) {
            return;
        }
        running.shutdown();
        try {
            if (!running.awaitTermination(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                running.shutdownNow();
            }
        } catch (InterruptedException e) {
            running.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
