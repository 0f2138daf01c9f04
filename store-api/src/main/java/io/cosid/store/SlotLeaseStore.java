package io.cosid.store;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Hands out machine-id slots of a namespace as leases with a TTL.
 *
 * <p>Every acquire starts a new term of a slot with a strictly larger fence and a timestamp window
 * {@code [floor, ceiling)} that starts at or after the end of the previous term's window, so two
 * holders of one slot never stamp the same timestamp, even when clocks are skewed or the store's
 * clock steps back. An owner that acquires again (a restarted instance with the same owner key)
 * gets its last slot back when that slot is free.
 *
 * <p>"Now" is always the store's clock, never the caller's. All methods are thread-safe and each
 * completes within the store's timeout or throws {@link StoreTimeoutException}.
 */
public interface SlotLeaseStore {

    /**
     * Creates a namespace or checks an existing one. Idempotent for the same values; raising the
     * limit of an existing namespace is allowed.
     *
     * @param namespace the namespace's name (one segment, no {@code /})
     * @param limit the number of slots, {@code 1..}{@link StoreArguments#MAX_LIMIT}
     * @param tolerance the clock skew allowed between holders and the store, whole milliseconds, at
     *     least zero
     * @return the namespace as stored afterwards
     * @throws IllegalArgumentException if an argument breaks its rule
     * @throws NamespaceConflictException if the namespace exists with a larger limit or another
     *     tolerance
     * @throws StoreCorruptedException if the stored namespace does not parse
     * @throws StoreTimeoutException if the store's timeout ran out
     * @throws IllegalStateException if the store was closed
     */
    Namespace define(String namespace, int limit, Duration tolerance);

    /**
     * Reads a namespace.
     *
     * @param namespace the namespace's name
     * @return the namespace, or empty if it was never defined
     * @throws IllegalArgumentException if the name is invalid
     * @throws StoreCorruptedException if the stored namespace does not parse
     * @throws StoreTimeoutException if the store's timeout ran out
     * @throws IllegalStateException if the store was closed
     */
    Optional<Namespace> namespace(String namespace);

    /**
     * Lists every namespace.
     *
     * @return the namespaces in name order
     * @throws StoreCorruptedException if a stored namespace does not parse
     * @throws StoreTimeoutException if the store's timeout ran out
     * @throws IllegalStateException if the store was closed
     */
    List<Namespace> namespaces();

    /**
     * Acquires a free slot: one the owner index lists for this owner key (most recent first), else
     * the lowest-numbered free slot.
     *
     * @param namespace the namespace's name
     * @param ownerKey who asks, stable across restarts of the same instance (one segment, no {@code
     *     /})
     * @param ttl how long the lease lasts unless renewed, whole milliseconds, {@code 1ms..} {@link
     *     StoreArguments#MAX_TTL}
     * @return the new term's lease
     * @throws IllegalArgumentException if an argument breaks its rule
     * @throws NamespaceNotFoundException if the namespace was never defined
     * @throws SlotsExhaustedException if no slot is free; no slot or owner index is written
     *     (docs/contract.md, "Bookkeeping writes")
     * @throws StoreCorruptedException if stored data that the choice needs does not parse
     * @throws StoreTimeoutException if the store's timeout ran out
     * @throws IllegalStateException if the store was closed
     */
    SlotLease acquire(String namespace, String ownerKey, Duration ttl);

    /**
     * Acquires a free slot, preferring {@code preferredSlot} after the slots the owner index lists
     * and before the lowest free one.
     *
     * @param namespace the namespace's name
     * @param ownerKey who asks
     * @param ttl how long the lease lasts unless renewed
     * @param preferredSlot the slot to take if it is free and the owner index offers none, {@code
     *     0..limit-1}
     * @return the new term's lease
     * @throws IllegalArgumentException if an argument breaks its rule, {@code preferredSlot}
     *     included
     * @throws NamespaceNotFoundException if the namespace was never defined
     * @throws SlotsExhaustedException if no slot is free; no slot or owner index is written
     *     (docs/contract.md, "Bookkeeping writes")
     * @throws StoreCorruptedException if stored data that the choice needs does not parse
     * @throws StoreTimeoutException if the store's timeout ran out
     * @throws IllegalStateException if the store was closed
     */
    SlotLease acquire(String namespace, String ownerKey, Duration ttl, int preferredSlot);

    /**
     * Extends a lease's term (same fence) by its ttl from the store's now. Succeeds while the
     * lease's fence is still the slot's current fence and the term was not released, even after
     * {@code expiresAt} if nobody took the slot. Neither {@code expiresAt} nor {@code ceiling} ever
     * decreases within a term.
     *
     * @param lease the lease to renew, as last returned by acquire or renew
     * @return the renewed lease
     * @throws LeaseLostException if the term ended (taken over, released or advanced past); nothing
     *     is written
     * @throws StoreCorruptedException if the stored slot does not parse
     * @throws StoreTimeoutException if the store's timeout ran out
     * @throws IllegalStateException if the store was closed
     */
    SlotLease renew(SlotLease lease);

    /**
     * Ends a lease's term now, keeping its whole window used: the slot is free at once and the next
     * term's floor is this term's {@code ceiling}. The store cannot know which timestamps of the
     * window the holder stamped (its own clock may have stepped back since the term's last write by
     * an amount it cannot always see), so it assumes all of them. A holder that knows what it
     * stamped hands back the unused rest with {@link #release(SlotLease, Instant)}, as {@link
     * LeaseGuard#release(SlotLeaseStore)} does. Idempotent while the fence is current. The holder
     * stops using the lease when it calls this, whatever the outcome.
     *
     * @param lease the lease to release
     * @return the end (exclusive) of the released term's window: no timestamp at or after it
     *     belongs to this term, and the slot's next term starts at or after it
     * @throws LeaseLostException if another term has started since; nothing is written
     * @throws StoreUnavailableException if a write of this call may have landed and the term is
     *     over now
     * @throws StoreCorruptedException if the stored slot does not parse, or was deleted or lowered
     *     behind the store's back
     * @throws StoreTimeoutException if the store's timeout ran out
     * @throws IllegalStateException if the store was closed
     */
    Instant release(SlotLease lease);

    /**
     * Ends a lease's term now, declaring that the holder stamped no timestamp at or after {@code
     * stampedBefore} under it: the slot is free at once and the next term's floor is {@code
     * max(floor, min(ceiling, stampedBefore))}, so the next holder may stamp from there on. The
     * store's clock plays no part in that bound, which is why it holds even after the store's clock
     * stepped back. A declaration below what the holder really stamped breaks the guarantee:
     * declare the highest timestamp used plus one millisecond ({@link
     * LeaseGuard#release(SlotLeaseStore)} does). Idempotent while the fence is current: a repeated
     * release returns the bound of the first one. The holder stops using the lease when it calls
     * this, whatever the outcome.
     *
     * @param lease the lease to release
     * @param stampedBefore the holder used no timestamp at or after this instant under the lease;
     *     whole milliseconds, at or after the epoch
     * @return the end (exclusive) of the released term's window: no timestamp at or after it
     *     belongs to this term, and the slot's next term starts at or after it
     * @throws IllegalArgumentException if {@code stampedBefore} breaks its rule
     * @throws LeaseLostException if another term has started since; nothing is written
     * @throws StoreUnavailableException if a write of this call may have landed and the term is
     *     over now
     * @throws StoreCorruptedException if the stored slot does not parse, or was deleted or lowered
     *     behind the store's back
     * @throws StoreTimeoutException if the store's timeout ran out
     * @throws IllegalStateException if the store was closed
     */
    Instant release(SlotLease lease, Instant stampedBefore);

    /**
     * Raises a free slot's fence and next floor, never lowering either; for migrations and
     * restores, so that this store can never issue a fence or window that another store already
     * issued.
     *
     * @param namespace the namespace's name
     * @param slot the slot, {@code 0..limit-1}
     * @param fenceAtLeast the lowest fence the slot's latest term may have afterwards; the next
     *     term gets more
     * @param floorAtLeast the lowest floor the next term may get
     * @return the slot as stored afterwards
     * @throws IllegalArgumentException if an argument breaks its rule
     * @throws NamespaceNotFoundException if the namespace was never defined
     * @throws SlotBusyException if the slot is held and the call would change it; nothing is
     *     written
     * @throws StoreCorruptedException if the stored slot does not parse
     * @throws StoreTimeoutException if the store's timeout ran out
     * @throws IllegalStateException if the store was closed
     */
    SlotView advance(String namespace, int slot, long fenceAtLeast, Instant floorAtLeast);

    /**
     * Reads a namespace's slots and the store's now, for operators and tools.
     *
     * @param namespace the namespace's name
     * @return the namespace, its used slots and the store's now
     * @throws IllegalArgumentException if the name is invalid
     * @throws NamespaceNotFoundException if the namespace was never defined
     * @throws StoreCorruptedException if a stored slot does not parse
     * @throws StoreTimeoutException if the store's timeout ran out
     * @throws IllegalStateException if the store was closed
     */
    NamespaceSnapshot inspect(String namespace);
}
