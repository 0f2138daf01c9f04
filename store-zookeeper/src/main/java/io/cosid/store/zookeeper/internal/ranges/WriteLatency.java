package io.cosid.store.zookeeper.internal.ranges;

import java.util.concurrent.TimeUnit;

/**
 * A moving average of this store's landed writes' round trips: how long "a while" is when a writer
 * waits in a key's line for a write to serve it ({@link RangeWrite}), measured on this ensemble and
 * this machine instead of fixed, so that it stretches when the machine is busy.
 */
final class WriteLatency {

    private static final long FIRST_ESTIMATE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    /** Races between updaters only blur the estimate. */
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
}
