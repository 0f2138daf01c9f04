package io.cosid.store.zookeeper.internal;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * How long a writer waits after losing a compare-and-set race to another process.
 *
 * <p>Why randomized and scaled to the write round trip: contenders that retry at once collide again, and on
 * ZooKeeper every failed conditional write still costs the ensemble a logged error transaction. Waiting a
 * random part of a window that doubles with each consecutive loss spreads them out (exponential backoff with
 * full jitter), and measuring the window in this store's own write round trips, not in fixed milliseconds,
 * keeps a lost race on a fast ensemble from costing more than a few writes' time.
 */
final class ContentionBackoff {

    private static final long FIRST_ESTIMATE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long MAX_WINDOW_NANOS = TimeUnit.MILLISECONDS.toNanos(200);
    private static final int MAX_DOUBLINGS = 8;

    /** Moving average of landed writes' round trips; races between updaters only blur an estimate. */
    private volatile long writeNanos = FIRST_ESTIMATE_NANOS;

    /** Records the round trip of a write that landed. */
    void landed(long nanos) {
        writeNanos += (Math.max(nanos, 1) - writeNanos) / 8;
    }

    /** The current window after {@code lost} consecutive lost races (1-based). */
    long windowNanos(int lost) {
        return Math.min(MAX_WINDOW_NANOS, writeNanos << Math.min(lost - 1, MAX_DOUBLINGS));
    }

    /** Waits a random part of the window, never past the operation's budget. */
    void pause(int lost, Deadline deadline) {
        long nanos = Math.min(ThreadLocalRandom.current().nextLong(windowNanos(lost) + 1), deadline.remainingNanos());
        if (nanos > 0) {
            LockSupport.parkNanos(nanos);
        }
    }
}
