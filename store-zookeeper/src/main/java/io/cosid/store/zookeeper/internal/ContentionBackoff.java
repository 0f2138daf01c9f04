package io.cosid.store.zookeeper.internal;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * How long a writer waits around a compare-and-set race with other processes, so that contenders
 * waste few writes and none of them starves.
 *
 * <p>Why losers wait a random, growing part of their own write round trip: contenders that retry at
 * once collide again, and on ZooKeeper every failed conditional write still costs the ensemble a
 * logged error transaction. Waiting a random part of a window that doubles with each consecutive
 * loss spreads them out (exponential backoff with full jitter); measuring the window in this
 * store's own write round trips, not in fixed milliseconds, keeps a lost race on a fast ensemble
 * from costing more than a few writes' time. The window stops doubling at 64 round trips, so a
 * loser keeps trying often enough to find a turn.
 *
 * <p>Why winners leave gaps ({@link Turns#beforeWrite}): the writer whose write just landed learns
 * the new version first, so with back-to-back demand it sends the next write before any loser can
 * and wins every race after (the capture effect of binary exponential backoff: losers starve). So a
 * key's versions are cut into turns: a writer that made a version divisible by 8 (on a key that
 * lost a race in the last second; by 256 on one that never did, which costs a lone writer under
 * half a percent) waits one to three round trips before writing again, back to back. Every
 * contender can tell that from the version alone: a loser whose failed write brought back such a
 * version tries again at once instead of backing off, because the gap is now.
 */
final class ContentionBackoff {

    private static final long FIRST_ESTIMATE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long MAX_WINDOW_NANOS = TimeUnit.MILLISECONDS.toNanos(200);
    private static final int MAX_DOUBLINGS = 6;

    /** How long after a lost race a key counts as contended. */
    private static final long HOT_NANOS = TimeUnit.SECONDS.toNanos(1);

    /** Versions per turn on a contended key, and on a key that never lost a race. */
    private static final int HOT_TURN = 8;

    private static final int COLD_TURN = 256;

    /**
     * Moving average of landed writes' round trips; races between updaters only blur an estimate.
     */
    private volatile long writeNanos = FIRST_ESTIMATE_NANOS;

    /** Records the round trip of a write that landed. */
    @SuppressWarnings(
            "NonAtomicVolatileUpdate") // a lost update between two writers only blurs the estimate
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

    /**
     * A loser's wait: a random part of the window, never past the operation's budget.
     *
     * @return how long it waited, in nanoseconds
     */
    long pause(int lost, Deadline deadline) {
        return park(ThreadLocalRandom.current().nextLong(windowNanos(lost) + 1), deadline);
    }

    private static long park(long nanos, Deadline deadline) {
        long n = Math.min(nanos, deadline.remainingNanos());
        if (n > 0) {
            LockSupport.parkNanos(n);
        }
        return Math.max(n, 0);
    }

    /**
     * One key's races as this store sees them. Only the writer holding the key's turn in its {@link
     * AcquireCoalescer} touches it (its turn lock orders those writers), so plain fields suffice.
     */
    final class Turns {
        private long lostAt = Long.MIN_VALUE / 2;
        private long landedAt = Long.MIN_VALUE / 2;
        private int landedVersion = -1;

        /** Whether the key lost a race to another process in the last second. */
        boolean hot(long now) {
            return now - lostAt < HOT_NANOS;
        }

        /**
         * Before a write over {@code version} that did not just lose: if this store wrote that
         * version (back to back, and it is a turn's last), leave the gap.
         */
        void beforeWrite(int version, Deadline deadline) {
            long now = System.nanoTime();
            if (version == landedVersion
                    && now - landedAt <= 2 * writeNanos
                    && Math.floorMod(version, hot(now) ? HOT_TURN : COLD_TURN) == 0) {
                park(
                        writeNanos + ThreadLocalRandom.current().nextLong(2 * writeNanos + 1),
                        deadline);
            }
        }

        /**
         * Whether the state a lost race brought is a turn's last version, the one whose writer
         * leaves a gap before writing again: a loser that sees it should try at once (the gap is
         * now) instead of waiting.
         */
        static boolean gapAfter(int version) {
            return Math.floorMod(version, HOT_TURN) == 0;
        }

        /** After a landed write that made {@code version}. */
        void landed(int version) {
            landedAt = System.nanoTime();
            landedVersion = version;
        }

        /** After a race lost to another process. */
        void lost() {
            lostAt = System.nanoTime();
        }
    }
}
