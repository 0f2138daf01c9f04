package io.cosid.store.jdbc;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Work a timed-out call leaves behind (docs/contract.md, "Timed-out calls leave nothing held"): an
 * acquire whose commit may have landed, or a release that may not have, is finished in the
 * background, tried again every so often until it is settled or its budget (the lease's ttl, at
 * least the store's timeout) ran out; after that the slot is free by expiry anyway.
 */
final class Settlements {

    private static final Logger LOG = LoggerFactory.getLogger(Settlements.class);

    private final String storeName;
    private final Duration timeout;
    private @Nullable ScheduledExecutorService executor;
    private boolean closed;

    Settlements(String storeName, Duration timeout) {
        this.storeName = storeName;
        this.timeout = timeout;
    }

    /** The thread settling, started with the first settlement: most stores never need one. */
    private synchronized ScheduledExecutorService executor() {
        if (executor == null) {
            executor =
                    Executors.newSingleThreadScheduledExecutor(
                            r -> {
                                Thread t = new Thread(r, "cosid-store-jdbc-settle-" + storeName);
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
     * Tries {@code attempt} until it returns {@code true} (settled), within {@code budget} (at
     * least the store's timeout). An attempt that throws is tried again.
     */
    void later(String what, Duration budget, BooleanSupplier attempt) {
        ScheduledExecutorService executor = executor();
        long end = System.nanoTime() + Math.max(budget.toNanos(), timeout.toNanos());
        long pause = Math.max(10, timeout.toMillis() / 4);
        Runnable[] task = new Runnable[1];
        task[0] =
                () -> {
                    boolean settled;
                    try {
                        settled = attempt.getAsBoolean();
                    } catch (RuntimeException e) {
                        LOG.debug("{}: not settled yet: {}", what, e.toString());
                        settled = false;
                    }
                    if (!settled && System.nanoTime() - end < 0 && !executor.isShutdown()) {
                        try {
                            var unused = executor.schedule(task[0], pause, TimeUnit.MILLISECONDS);
                        } catch (RejectedExecutionException e) {
                            LOG.warn("{}: not settled before the store closed", what);
                        }
                    } else if (!settled) {
                        LOG.warn("{}: not settled within its budget; the lease expires", what);
                    }
                };
        try {
            executor.execute(task[0]);
        } catch (RejectedExecutionException e) {
            LOG.warn("{}: the store is closed; the lease expires", what);
        }
    }

    /** Waits at most the store's timeout for queued settlements, then stops. */
    void close() {
        ScheduledExecutorService executor;
        synchronized (this) {
            closed = true;
            executor = this.executor;
        }
        if (executor == null) {
            return;
        }
        executor.shutdown();
        try {
            if (!executor.awaitTermination(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                executor.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            executor.shutdownNow();
        }
    }
}
