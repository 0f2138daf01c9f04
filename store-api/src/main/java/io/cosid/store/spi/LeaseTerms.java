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

    /** The term ended (renewed into a new one, released or lost). */
    void ended(SlotLease lease) {
        sent.remove(Term.of(lease));
    }

    /** How long the term stays valid from {@code nowNanos}; zero when unknown or over. */
    Duration validFor(SlotLease lease, long nowNanos) {
        long[] t = sent.get(Term.of(lease));
        if (t == null) {
            return Duration.ZERO;
        }
        long left = t[1] - (nowNanos - t[0]);
        return left > 0 ? Duration.ofNanos(left) : Duration.ZERO;
    }
}
