package io.cosid.store;

import java.time.Duration;
import java.time.Instant;

/**
 * One term of a machine-id slot, as a holder gets it ({@link SlotLease}) and as an operator sees
 * the slot's latest one ({@link SlotView}): the values both carry, described once.
 */
public sealed interface SlotTerm permits SlotLease, SlotView {

    /**
     * The namespace's name.
     *
     * @return the namespace
     */
    String namespace();

    /**
     * The slot number, {@code 0 <= slot < limit}.
     *
     * @return the slot
     */
    int slot();

    /**
     * The owner that holds (or last held) the term; empty in a view of a slot never held.
     *
     * @return the owner key
     */
    String ownerKey();

    /**
     * The term's fence token: strictly larger than every earlier term's fence of this slot; 0 in a
     * view of a slot never held (unless {@link SlotLeaseStore#advance} raised it).
     *
     * @return the fence
     */
    long fence();

    /**
     * How many terms in a row this owner key has held this slot (1 for a new owner); 0 in a view of
     * a slot never held.
     *
     * @return the incarnation
     */
    long incarnation();

    /**
     * The first timestamp the holder may use: at or after the end of every earlier term's window.
     *
     * @return the floor
     */
    Instant floor();

    /**
     * When the term expires by the store's clock unless renewed.
     *
     * @return the expiry
     */
    Instant expiresAt();

    /**
     * The end (exclusive) of the holder's timestamp window: {@code expiresAt + tolerance} or more.
     *
     * @return the ceiling
     */
    Instant ceiling();

    /**
     * The term's time to live, as requested; zero in a view of a slot never held.
     *
     * @return the ttl
     */
    Duration ttl();

    /**
     * Whether a timestamp lies in the term's window {@code [floor, ceiling)}. This alone does not
     * say a lease is still usable; see {@link LeaseGuard}.
     *
     * @param timestamp the timestamp
     * @return {@code true} when {@code floor <= timestamp < ceiling}
     */
    default boolean windowContains(Instant timestamp) {
        return !timestamp.isBefore(floor()) && timestamp.isBefore(ceiling());
    }
}
