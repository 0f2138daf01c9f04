package io.cosid.store.tck;

import io.cosid.store.Range;
import io.cosid.store.SlotLease;
import java.time.Instant;

/**
 * One successful operation in a recorded history. {@code invokedAt} and {@code completedAt} are ticks of
 * the recorder's logical clock, read just before the call and just after it returned: an event whose
 * {@code completedAt} is below another's {@code invokedAt} happened before it in real time.
 */
public sealed interface HistoryEvent {

    /**
     * The tick read just before the call.
     *
     * @return the invocation tick
     */
    long invokedAt();

    /**
     * The tick read just after the call returned.
     *
     * @return the completion tick
     */
    long completedAt();

    /**
     * A range was handed out.
     *
     * @param range       the range
     * @param invokedAt   the invocation tick
     * @param completedAt the completion tick
     */
    record RangeGranted(Range range, long invokedAt, long completedAt) implements HistoryEvent {
    }

    /**
     * A lease started a new term.
     *
     * @param lease       the lease
     * @param limit       the namespace's limit at the time, or -1 if unknown
     * @param invokedAt   the invocation tick
     * @param completedAt the completion tick
     */
    record LeaseGranted(SlotLease lease, int limit, long invokedAt, long completedAt) implements HistoryEvent {
    }

    /**
     * A lease was renewed.
     *
     * @param lease       the renewed lease
     * @param invokedAt   the invocation tick
     * @param completedAt the completion tick
     */
    record LeaseRenewed(SlotLease lease, long invokedAt, long completedAt) implements HistoryEvent {
    }

    /**
     * A lease was released.
     *
     * @param lease       the released lease
     * @param usedUntil   the holder's last possible timestamp bound: the store-comparable time when release was
     *                    called (the holder stamps nothing after it)
     * @param invokedAt   the invocation tick
     * @param completedAt the completion tick
     */
    record LeaseReleased(SlotLease lease, Instant usedUntil, long invokedAt, long completedAt)
            implements HistoryEvent {
    }

    /**
     * A release whose outcome is unknown (it failed with a timeout or a lost connection): it may have landed.
     * The holder stopped using the lease when it called release, so its window may end at {@code usedUntil}
     * unless it renewed the term successfully afterwards.
     *
     * @param lease       the lease it tried to release
     * @param usedUntil   the holder's last possible timestamp bound, as for {@link LeaseReleased}
     * @param invokedAt   the invocation tick
     * @param completedAt the tick when the failure was seen
     */
    record LeaseReleaseUnknown(SlotLease lease, Instant usedUntil, long invokedAt, long completedAt)
            implements HistoryEvent {
    }
}
