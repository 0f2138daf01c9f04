package io.cosid.store.tck;

import io.cosid.store.LeaseLostException;
import io.cosid.store.Range;
import io.cosid.store.RangeStore;
import io.cosid.store.SlotLease;
import io.cosid.store.SlotLeaseStore;
import io.cosid.store.StoreException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Records every successful range and lease operation of a test, from any number of threads, for
 * {@link HistoryChecker}. Failed operations are not recorded: their exceptions reach the caller
 * unchanged.
 */
public final class HistoryRecorder {

    private final AtomicLong ticks = new AtomicLong();
    private final ConcurrentLinkedQueue<HistoryEvent> events = new ConcurrentLinkedQueue<>();

    /** A recorder with an empty history. */
    public HistoryRecorder() {}

    /**
     * Acquires a range and records it.
     *
     * @param store the range store
     * @param key the key
     * @param size the size
     * @return the range
     */
    public Range acquire(RangeStore store, String key, long size) {
        long invoked = ticks.incrementAndGet();
        Range range = store.acquire(key, size);
        events.add(new HistoryEvent.RangeGranted(range, invoked, ticks.incrementAndGet()));
        return range;
    }

    /**
     * Acquires a lease and records it.
     *
     * @param store the slot lease store
     * @param namespace the namespace
     * @param ownerKey the owner key
     * @param ttl the ttl
     * @param limit the namespace's limit, checked against the slot
     * @return the lease
     */
    public SlotLease acquire(
            SlotLeaseStore store, String namespace, String ownerKey, Duration ttl, int limit) {
        long invoked = ticks.incrementAndGet();
        SlotLease lease = store.acquire(namespace, ownerKey, ttl);
        events.add(new HistoryEvent.LeaseGranted(lease, limit, invoked, ticks.incrementAndGet()));
        return lease;
    }

    /**
     * Renews a lease and records the result.
     *
     * @param store the slot lease store
     * @param lease the lease
     * @return the renewed lease
     */
    public SlotLease renew(SlotLeaseStore store, SlotLease lease) {
        long invoked = ticks.incrementAndGet();
        SlotLease renewed = store.renew(lease);
        events.add(new HistoryEvent.LeaseRenewed(renewed, invoked, ticks.incrementAndGet()));
        return renewed;
    }

    /**
     * Releases a lease, declaring nothing (the whole window stays used), and records it; a release
     * that fails with an unknown outcome is recorded as such before the exception is rethrown.
     *
     * @param store the slot lease store
     * @param lease the lease
     * @return the end of the released term's window, as the store returned it
     */
    public Instant release(SlotLeaseStore store, SlotLease lease) {
        return record(lease, null, () -> store.release(lease));
    }

    /**
     * Releases a lease declaring that nothing at or after {@code stampedBefore} was stamped, and
     * records it as {@link #release(SlotLeaseStore, SlotLease)} does.
     *
     * @param store the slot lease store
     * @param lease the lease
     * @param stampedBefore what the holder declares
     * @return the end of the released term's window, as the store returned it
     */
    public Instant release(SlotLeaseStore store, SlotLease lease, Instant stampedBefore) {
        return record(lease, stampedBefore, () -> store.release(lease, stampedBefore));
    }

    private Instant record(
            SlotLease lease, @Nullable Instant stampedBefore, Supplier<Instant> release) {
        long invoked = ticks.incrementAndGet();
        Instant windowEnd;
        try {
            windowEnd = release.get();
        } catch (LeaseLostException e) {
            throw e; // refused: nothing was written
        } catch (StoreException e) {
            // it may have landed: the holder stopped using the lease when it called release
            events.add(
                    new HistoryEvent.LeaseReleaseUnknown(
                            lease, stampedBefore, invoked, ticks.incrementAndGet()));
            throw e;
        }
        events.add(
                new HistoryEvent.LeaseReleased(lease, windowEnd, invoked, ticks.incrementAndGet()));
        return windowEnd;
    }

    /**
     * Records an event observed elsewhere (e.g. by a fault test's own client code).
     *
     * @param event the event
     */
    public void record(HistoryEvent event) {
        events.add(event);
    }

    /**
     * The next tick of the logical clock, for events recorded with {@link #record}.
     *
     * @return a tick larger than every earlier one
     */
    public long tick() {
        return ticks.incrementAndGet();
    }

    /**
     * Everything recorded so far.
     *
     * @return the events, in recording order
     */
    public List<HistoryEvent> events() {
        return new ArrayList<>(events);
    }
}
