package io.cosid.store.zookeeper.internal;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * How long a writer waits around a compare-and-set race with other processes.
 *
 * <p>Why randomized and scaled to the write round trip: contenders that retry at once collide again, and on
 * ZooKeeper every failed conditional write still costs the ensemble a logged error transaction. Waiting a
 * random part of a window that doubles with each consecutive loss spreads them out (exponential backoff with
 * full jitter), and measuring the window in this store's own write round trips, not in fixed milliseconds,
 * keeps a lost race on a fast ensemble from costing more than a few writes' time. The window stops doubling
 * at 16 round trips: a longer wait only ages the state the retry will write over.
 *
 * <p>Why winners wait too ({@link #yieldTurn}): the writer whose write just landed learns the new version
 * first, so with back-to-back demand it would send the next write before any loser could and win every race
 * after (the capture effect of binary exponential backoff). On a key that has seen contention, the winner
 * waits a random part of two round trips before its next write, so the losers get their turn.
 */
final class ContentionBackoff {

    private static final long FIRST_ESTIMATE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long MAX_WINDOW_NANOS = TimeUnit.MILLISECONDS.toNanos(200);
    private static final int MAX_DOUBLINGS = 4;

    /** Moving average of landed writes' round trips; races between updaters only blur an estimate. */
    private volatile long writeNanos = FIRST_ESTIMATE_NANOS;

    /** Records the round trip of a write that landed. */
    void landed(long nanos) {
        writeNanos += (Math.max(nanos, 1) - writeNanos) / 8;
    }

    /** The measured round trip of a landed write. */
    long writeNanos() {
        return writeNanos;
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

    /** A winner's wait before its next write on a key that has seen contention: a random part of two round trips. */
    void yieldTurn(Deadline deadline) {
        long nanos = Math.min(ThreadLocalRandom.current().nextLong(2 * writeNanos + 1), deadline.remainingNanos());
        if (nanos > 0) {
            LockSupport.parkNanos(nanos);
        }
    }
}
