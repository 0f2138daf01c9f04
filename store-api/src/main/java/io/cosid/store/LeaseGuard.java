package io.cosid.store;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The holder's rule as a helper for ID generators: stamp only timestamps {@code t} with {@code
 * floor <= t < ceiling}, and stop using the lease once {@code ttl} has passed on the local
 * monotonic clock since the acquire or renew request was sent, whichever comes first.
 *
 * <p>The monotonic clock is what makes the rule safe when the local wall clock jumps: the store may
 * let another holder take the slot once the lease expires by the store's clock, and this instance's
 * monotonic clock cannot run slower than the real time that passed.
 *
 * <p>The guard remembers the highest timestamp it allowed, for the whole term (the guards that
 * {@link #renew(SlotLeaseStore)} returns share it). {@link #release(SlotLeaseStore)} declares it to
 * the store, so the next holder's floor is just above what this holder stamped, whatever the
 * store's clock says (docs/contract.md, "Terms and leases"). Stamp only timestamps the guard
 * allowed. All methods are thread-safe.
 *
 * <pre>{@code
 * LeaseGuard guard = LeaseGuard.acquire(store.slots(), "orders", "host-7", Duration.ofSeconds(30));
 * ...
 * if (!guard.mayStamp(Instant.now())) { guard = guard.renew(store.slots()); }
 * }</pre>
 */
public final class LeaseGuard {

    /** {@link #highestStamped} before any timestamp was allowed. */
    private static final long NONE = Long.MIN_VALUE;

    /**
     * {@link #highestStamped} once the term was released through a guard: nothing is allowed any
     * more.
     */
    private static final long CLOSED = Long.MAX_VALUE;

    private final SlotLease lease;
    private final long sentAtNanos;
    private final Ticker ticker;

    /**
     * The highest timestamp (epoch milliseconds) any guard of this term allowed, NONE, or CLOSED.
     * One atomic value, so that a release that closes it learns every timestamp allowed before, and
     * none is allowed after.
     */
    private final AtomicLong highestStamped;

    private LeaseGuard(
            SlotLease lease, long sentAtNanos, Ticker ticker, AtomicLong highestStamped) {
        this.lease = Objects.requireNonNull(lease, "lease");
        this.sentAtNanos = sentAtNanos;
        this.ticker = Objects.requireNonNull(ticker, "ticker");
        this.highestStamped = highestStamped;
    }

    /**
     * Guards a lease whose request was sent at {@code requestSentNanos} of {@link
     * System#nanoTime()}.
     *
     * @param lease the lease
     * @param requestSentNanos {@link System#nanoTime()} read just before the acquire or renew
     *     request
     * @return the guard
     */
    public static LeaseGuard of(SlotLease lease, long requestSentNanos) {
        return new LeaseGuard(lease, requestSentNanos, Ticker.system(), new AtomicLong(NONE));
    }

    /**
     * Guards a lease on a given ticker (a stepped one in tests).
     *
     * @param lease the lease
     * @param requestSentNanos the ticker's reading just before the request was sent
     * @param ticker where elapsed time is read
     * @return the guard
     */
    public static LeaseGuard of(SlotLease lease, long requestSentNanos, Ticker ticker) {
        return new LeaseGuard(lease, requestSentNanos, ticker, new AtomicLong(NONE));
    }

    /**
     * Acquires a lease and guards it, reading the monotonic clock before the request.
     *
     * @param store the slot lease store
     * @param namespace the namespace
     * @param ownerKey the owner key
     * @param ttl the lease's ttl
     * @return the guard of the new lease
     * @throws StoreException as {@link SlotLeaseStore#acquire(String, String, Duration)} does
     */
    public static LeaseGuard acquire(
            SlotLeaseStore store, String namespace, String ownerKey, Duration ttl) {
        long sent = System.nanoTime();
        return new LeaseGuard(
                store.acquire(namespace, ownerKey, ttl),
                sent,
                Ticker.system(),
                new AtomicLong(NONE));
    }

    /**
     * Renews the guarded lease and guards the result; the new guard shares this one's record of the
     * timestamps allowed.
     *
     * @param store the store that issued the lease
     * @return the guard of the renewed lease
     * @throws IllegalStateException if the term was released through a guard
     * @throws StoreException as {@link SlotLeaseStore#renew(SlotLease)} does
     */
    public LeaseGuard renew(SlotLeaseStore store) {
        if (isReleased()) {
            throw new IllegalStateException(
                    "the lease of slot "
                            + lease.slot()
                            + " in namespace '"
                            + lease.namespace()
                            + "' (fence "
                            + lease.fence()
                            + ") was released through its guard;"
                            + " acquire a new one");
        }
        long sent = ticker.nanos();
        return new LeaseGuard(store.renew(lease), sent, ticker, highestStamped);
    }

    /**
     * Releases the term, declaring what the guards of the term know was stamped: the highest
     * timestamp any of them allowed, so that the next holder's floor becomes that timestamp plus
     * one millisecond. If no guard allowed a timestamp, the guards know nothing of what was stamped
     * (the generator may not have asked them), so this declares nothing, as {@link
     * SlotLeaseStore#release(SlotLease)} does, and the next floor is the term's ceiling. From the
     * moment this is called, {@link #mayStamp} of every guard of the term answers {@code false},
     * whatever the outcome of the release.
     *
     * <p>A caller that knows nothing was stamped under the term (it never handed the lease to a
     * generator) may call {@link SlotLeaseStore#release(SlotLease, Instant)} with the lease's floor
     * instead.
     *
     * @param store the store that issued the lease
     * @return the end (exclusive) of the released term's window, as the store's release returns it
     * @throws StoreException as {@link SlotLeaseStore#release(SlotLease, Instant)} does
     */
    public Instant release(SlotLeaseStore store) {
        long highest = highestStamped.getAndSet(CLOSED);
        if (highest == CLOSED || highest == NONE) {
            // Released before (this call only asks again), or no stamp recorded: a timestamp nobody
            // recorded was maybe used, so the whole window stays used.
            return store.release(lease);
        }
        return store.release(lease, Instant.ofEpochMilli(highest + 1));
    }

    /**
     * Whether the term was released through a guard.
     *
     * @return {@code true} once {@link #release(SlotLeaseStore)} was called on any guard of this
     *     term
     */
    public boolean isReleased() {
        return highestStamped.get() == CLOSED;
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
        Duration left = lease.ttl().minusNanos(ticker.nanos() - sentAtNanos);
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
     * Whether a timestamp may be stamped under this lease now; a {@code true} answer is remembered
     * as a timestamp used, for {@link #release(SlotLeaseStore)}.
     *
     * @param timestamp the timestamp the generator wants to use
     * @return {@code true} when the lease is usable, was not released through a guard, and {@code
     *     floor <= timestamp < ceiling}
     */
    public boolean mayStamp(Instant timestamp) {
        if (!isUsable() || !lease.windowContains(timestamp)) {
            return false;
        }
        long millis = timestamp.toEpochMilli(); // the window lies within epoch milliseconds
        while (true) {
            long highest = highestStamped.get();
            if (highest == CLOSED) {
                return false;
            }
            if (millis <= highest || highestStamped.compareAndSet(highest, millis)) {
                return true;
            }
        }
    }

    /**
     * Whether a timestamp in epoch milliseconds may be stamped under this lease now.
     *
     * @param epochMillis the timestamp in milliseconds since the epoch
     * @return {@code true} when the lease is usable and the timestamp is in {@code [floor,
     *     ceiling)}
     */
    public boolean mayStamp(long epochMillis) {
        return mayStamp(Instant.ofEpochMilli(epochMillis));
    }
}
