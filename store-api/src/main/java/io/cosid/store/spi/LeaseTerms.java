package io.cosid.store.spi;

import io.cosid.store.LeaseGuard;
import io.cosid.store.SlotLease;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * When each lease term this store's callers hold was requested, by the monotonic clock, so that an
 * observer learns how long a lease stays valid ({@link LeaseGuard}'s rule: its TTL from when the
 * request was sent) and how much of the previous term was left at a renewal.
 */
final class LeaseTerms {

    /** A term: one slot, one fence, one owner. */
    private record Term(String namespace, int slot, long fence, String ownerKey) {
        static Term of(SlotLease lease) {
            return new Term(lease.namespace(), lease.slot(), lease.fence(), lease.ownerKey());
        }
    }

    /** Above this many terms, each new one first forgets those past their TTL. */
    private static final int SWEEP_ABOVE = 64;

    private final Map<Term, long[]> sent = new ConcurrentHashMap<>();

    /** A term requested at {@code sentNanos} was granted. */
    void began(SlotLease lease, long sentNanos) {
        if (sent.size() > SWEEP_ABOVE) {
            long now = System.nanoTime();
            sent.values().removeIf(t -> now - t[0] > t[1]);
        }
        sent.put(Term.of(lease), new long[] {sentNanos, lease.ttl().toNanos()});
    }

    /** The term ended (released or lost). */
    void ended(SlotLease lease) {
        sent.remove(Term.of(lease));
    }

    /**
     * {@code old} was renewed into {@code renewed} by a request sent at {@code sentNanos}.
     *
     * @return how long {@code old} was still valid for when the renewal was sent; zero when unknown
     *     or over
     */
    Duration renewed(SlotLease old, SlotLease renewed, long sentNanos) {
        Term before = Term.of(old);
        Term after = Term.of(renewed);
        long[] now = {sentNanos, renewed.ttl().toNanos()};
        long[] was = sent.put(after, now);
        if (!after.equals(before)) {
            was = sent.remove(before);
        }
        return was == null ? Duration.ZERO : left(was[0], was[1], sentNanos);
    }

    /**
     * How long a term requested at {@code sentNanos} with {@code ttlNanos} stays valid from {@code
     * nowNanos} ({@link LeaseGuard}'s rule); zero once over.
     */
    static Duration left(long sentNanos, long ttlNanos, long nowNanos) {
        long left = ttlNanos - (nowNanos - sentNanos);
        return left > 0 ? Duration.ofNanos(left) : Duration.ZERO;
    }
}
