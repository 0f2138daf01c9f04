package io.cosid.store;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * The holder's rule as a helper for ID generators: stamp only timestamps {@code t} with
 * {@code floor <= t < ceiling}, and stop using the lease once {@code ttl} has passed on the local monotonic
 * clock since the acquire or renew request was sent, whichever comes first.
 *
 * <p>The monotonic clock is what makes the rule safe when the local wall clock jumps: the store may let
 * another holder take the slot once the lease expires by the store's clock, and this instance's monotonic
 * clock cannot run slower than the real time that passed.
 *
 * <pre>{@code
 * LeaseGuard guard = LeaseGuard.acquire(store.slots(), "orders", "host-7", Duration.ofSeconds(30));
 * ...
 * if (!guard.mayStamp(Instant.now())) { guard = guard.renew(store.slots()); }
 * }</pre>
 */
public final class LeaseGuard {

    private final SlotLease lease;
    private final long sentAtNanos;
    private final LongSupplier nanoTime;

    private LeaseGuard(SlotLease lease, long sentAtNanos, LongSupplier nanoTime) {
        this.lease = Objects.requireNonNull(lease, "lease");
        this.sentAtNanos = sentAtNanos;
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
    }

    /**
     * Guards a lease whose request was sent at {@code requestSentNanos} of {@link System#nanoTime()}.
     *
     * @param lease            the lease
     * @param requestSentNanos {@link System#nanoTime()} read just before the acquire or renew request
     * @return the guard
     */
    public static LeaseGuard of(SlotLease lease, long requestSentNanos) {
        return new LeaseGuard(lease, requestSentNanos, System::nanoTime);
    }

    /**
     * Guards a lease with a given monotonic clock (for tests).
     *
     * @param lease            the lease
     * @param requestSentNanos the clock's reading just before the request was sent
     * @param nanoTime         a monotonic clock in nanoseconds
     * @return the guard
     */
    public static LeaseGuard of(SlotLease lease, long requestSentNanos, LongSupplier nanoTime) {
        return new LeaseGuard(lease, requestSentNanos, nanoTime);
    }

    /**
     * Acquires a lease and guards it, reading the monotonic clock before the request.
     *
     * @param store     the slot lease store
     * @param namespace the namespace
     * @param ownerKey  the owner key
     * @param ttl       the lease's ttl
     * @return the guard of the new lease
     * @throws StoreException as {@link SlotLeaseStore#acquire(String, String, Duration)} does
     */
    public static LeaseGuard acquire(SlotLeaseStore store, String namespace, String ownerKey, Duration ttl) {
        long sent = System.nanoTime();
        return new LeaseGuard(store.acquire(namespace, ownerKey, ttl), sent, System::nanoTime);
    }

    /**
     * Renews the guarded lease and guards the result.
     *
     * @param store the store that issued the lease
     * @return the guard of the renewed lease
     * @throws StoreException as {@link SlotLeaseStore#renew(SlotLease)} does
     */
    public LeaseGuard renew(SlotLeaseStore store) {
        long sent = nanoTime.getAsLong();
        return new LeaseGuard(store.renew(lease), sent, nanoTime);
    }

    /**
     * The guarded lease.
     *
     * @return the lease
     */
    public SlotLease lease() {
        return lease;
    }

    /**
     * How long the lease may still be used by the monotonic clock.
     *
     * @return {@code ttl} minus the time since the request was sent, never negative
     */
    public Duration remaining() {
        Duration left = lease.ttl().minusNanos(nanoTime.getAsLong() - sentAtNanos);
        return left.isNegative() ? Duration.ZERO : left;
    }

    /**
     * Whether the lease may still be used by the monotonic clock.
     *
     * @return {@code true} while {@link #remaining()} is positive
     */
    public boolean isUsable() {
        return !remaining().isZero();
    }

    /**
     * Whether a timestamp may be stamped under this lease now.
     *
     * @param timestamp the timestamp the generator wants to use
     * @return {@code true} when the lease is usable and {@code floor <= timestamp < ceiling}
     */
    public boolean mayStamp(Instant timestamp) {
        return isUsable() && lease.windowContains(timestamp);
    }

    /**
     * Whether a timestamp in epoch milliseconds may be stamped under this lease now.
     *
     * @param epochMillis the timestamp in milliseconds since the epoch
     * @return {@code true} when the lease is usable and the timestamp is in {@code [floor, ceiling)}
     */
    public boolean mayStamp(long epochMillis) {
        return mayStamp(Instant.ofEpochMilli(epochMillis));
    }
}
