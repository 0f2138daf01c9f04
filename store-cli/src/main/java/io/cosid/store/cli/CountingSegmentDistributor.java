package io.cosid.store.cli;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import me.ahoo.cosid.segment.IdSegmentDistributor;

/**
 * The demo's segment distributor: CosId's calls pass through to the store's distributor, counted;
 * once closed, no call reaches the store any more, so the instance's store can be closed while
 * CosId's prefetch worker (which outlives the instance) still holds the chain.
 */
final class CountingSegmentDistributor implements IdSegmentDistributor {

    private final IdSegmentDistributor store;
    private final AtomicLong ranges;
    private final AtomicInteger inFlight = new AtomicInteger();
    private volatile boolean closed;

    CountingSegmentDistributor(IdSegmentDistributor store, AtomicLong ranges) {
        this.store = store;
        this.ranges = ranges;
    }

    @Override
    public String getNamespace() {
        return store.getNamespace();
    }

    @Override
    public String getName() {
        return store.getName();
    }

    @Override
    public long getStep() {
        return store.getStep();
    }

    @Override
    public long nextMaxId(long step) {
        inFlight.incrementAndGet();
        try {
            if (closed) {
                throw new IllegalStateException(
                        "the demo instance drawing from " + getNamespacedName() + " has stopped");
            }
            long maxId = store.nextMaxId(step);
            ranges.incrementAndGet();
            return maxId;
        } finally {
            inFlight.decrementAndGet();
        }
    }

    /** Lets no new call through and waits (at most {@code millis}) for those under way. */
    void close(long millis) throws InterruptedException {
        closed = true;
        long deadline = System.nanoTime() + millis * 1_000_000L;
        while (inFlight.get() > 0 && System.nanoTime() - deadline < 0) {
            Thread.sleep(5);
        }
    }
}
