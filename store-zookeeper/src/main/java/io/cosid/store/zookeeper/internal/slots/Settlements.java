package io.cosid.store.zookeeper.internal.slots;

import io.cosid.store.StoreException;
import io.cosid.store.zookeeper.internal.wire.Deadline;
import io.cosid.store.zookeeper.internal.wire.StoreLifecycle;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * Work a store finishes after it answered its caller: an acquire that ran out of time after its
 * write may have landed leaves a lease nobody holds, and a release that ran out of time leaves a
 * slot held that its holder gave up. Each is settled here, in the background, with a budget of its
 * own: up to the lease's ttl (after it the slot is free anyway), at least the store's timeout. The
 * caller still gets its answer on time, and the slot is free again long before its ttl when the
 * connection comes back. One daemon thread per store, started on first use; closing the store waits
 * for what is queued at most one store timeout.
 */
@Singleton
public final class Settlements {

    private static final System.Logger LOG = System.getLogger(Settlements.class.getName());

    private final StoreLifecycle lifecycle;
    private @Nullable ExecutorService executor;

    @Inject
    Settlements(StoreLifecycle lifecycle) {
        this.lifecycle = lifecycle;
    }

    /**
     * Queues a settlement.
     *
     * @param operation what it settles, for its budget's messages
     * @param worthFor how long settling is worth trying (the lease's ttl)
     * @param task the work, given its own budget
     */
    synchronized void later(String operation, Duration worthFor, Consumer<Deadline> task) {
        if (executor == null) {
            executor =
                    Executors.newSingleThreadExecutor(
                            r -> {
                                Thread t = new Thread(r, "cosid-store-settlements");
                                t.setDaemon(true);
                                return t;
                            });
        }
        executor.execute(
                () -> {
                    try {
                        Duration budget =
                                worthFor.compareTo(lifecycle.timeout()) > 0
                                        ? worthFor
                                        : lifecycle.timeout();
                        task.accept(Deadline.start(operation, budget, lifecycle.ticker()));
                    } catch (StoreException | IllegalStateException e) {
                        // the slot expires by its ttl instead; nothing else is at stake
                        LOG.log(
                                System.Logger.Level.DEBUG,
                                operation + " did not finish: " + e.getMessage(),
                                e);
                    }
                });
    }

    /** Lets queued settlements finish, waiting at most one budget; called when the store closes. */
    public void finish() {
        @Nullable ExecutorService running;
        synchronized (this) {
            running = executor;
            executor = null;
        }
        if (running == null) {
            return;
        }
        running.shutdown();
        try {
            if (!running.awaitTermination(lifecycle.timeout().toMillis(), TimeUnit.MILLISECONDS)) {
                running.shutdownNow();
            }
        } catch (InterruptedException e) {
            running.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
