package io.cosid.store.tck;

import io.cosid.store.Range;
import io.cosid.store.SlotLease;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * One successful operation in a recorded history. {@code invokedAt} and {@code completedAt} are
 * ticks of the recorder's logical clock, read just before the call and just after it returned: an
 * event whose {@code completedAt} is below another's {@code invokedAt} happened before it in real
 * time.
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
     * @param range the range
     * @param invokedAt the invocation tick
     * @param completedAt the completion tick
     */
    record RangeGranted(Range range, long invokedAt, long completedAt) implements HistoryEvent {}

    /**
     * A lease started a new term.
     *
     * @param lease the lease
     * @param limit the namespace's limit at the time, or -1 if unknown
     * @param invokedAt the invocation tick
     * @param completedAt the completion tick
     */
    record LeaseGranted(SlotLease lease, int limit, long invokedAt, long completedAt)
            implements HistoryEvent {}

    /**
     * A lease was renewed.
     *
     * @param lease the renewed lease
     * @param invokedAt the invocation tick
     * @param completedAt the completion tick
     */
    record LeaseRenewed(SlotLease lease, long invokedAt, long completedAt)
            implements HistoryEvent {}

    /**
     * A lease was released.
     *
     * @param lease the released lease
     * @param windowEnd the end of the term's window as the release returned it
     * @param invokedAt the invocation tick
     * @param completedAt the completion tick
     */
    record LeaseReleased(SlotLease lease, Instant windowEnd, long invokedAt, long completedAt)
            implements HistoryEvent {}

    /**
     * A release whose outcome is unknown (it failed with a timeout or a lost connection): it may
     * have landed, cutting the term's window short at a bound nobody saw. That bound is {@code
     * max(floor, min(ceiling, stampedBefore))} for a release that declared {@code stampedBefore},
     * and the ceiling for one that declared nothing; the checker assumes it unless the holder
     * renewed the term successfully after.
     *
     * @param lease the lease it tried to release
     * @param stampedBefore what the release declared, or null if it declared nothing
     * @param invokedAt the invocation tick
     * @param completedAt the tick when the failure was seen
     */
    record LeaseReleaseUnknown(
            SlotLease lease, @Nullable Instant stampedBefore, long invokedAt, long completedAt)
            implements HistoryEvent {}
}
