package io.cosid.store.spi;

import io.cosid.store.LeaseLostException;
import io.cosid.store.SlotLease;
import io.cosid.store.SlotView;
import java.time.Duration;
import java.time.Instant;

/**
 * One slot as a backend stores it: its latest term and the floor the next term gets
 * (docs/contract.md, "SlotLeaseStore"). Every method returns a new record; the rules of the
 * contract are here, one method per transition, so that every backend that computes terms in Java
 * applies them alike (the in-memory backend is this record over a map; the JDBC backend reads a
 * row, applies a transition and writes the row back under its lock).
 *
 * @param owner the owner key of the latest term; empty when the slot was never held
 * @param released whether the latest term was released (or ended by an advance)
 * @param fence the latest term's fence; 0 when never held
 * @param incarnation how many terms in a row the owner held the slot; 0 when never held
 * @param ttl the latest term's ttl
 * @param tolerance the namespace's tolerance when the latest term started
 * @param floor the latest term's floor
 * @param expiresAt the latest term's expiry by the store's clock
 * @param ceiling the end (exclusive) of the latest term's window
 * @param nextFloor the floor the next term gets
 * @param releasedAt when the latest term was released by the store's clock; the epoch when not
 */
public record SlotState(
        String owner,
        boolean released,
        long fence,
        long incarnation,
        Duration ttl,
        Duration tolerance,
        Instant floor,
        Instant expiresAt,
        Instant ceiling,
        Instant nextFloor,
        Instant releasedAt) {

    /** A slot nobody ever held or advanced. */
    public static final SlotState NEVER_HELD =
            new SlotState(
                    "",
                    false,
                    0,
                    0,
                    Duration.ZERO,
                    Duration.ZERO,
                    Instant.EPOCH,
                    Instant.EPOCH,
                    Instant.EPOCH,
                    Instant.EPOCH,
                    Instant.EPOCH);

    /**
     * Free: never held, released, expired by the store's clock ({@code now >= expiresAt}), or only
     * advanced. A slot whose fence cannot grow any more is never free: it could not start a term
     * with a larger fence.
     *
     * @param now the store's now
     * @return whether an acquire may start a term on the slot at {@code now}
     */
    public boolean isFreeAt(Instant now) {
        boolean noTerm = owner.isEmpty() || released || !now.isBefore(expiresAt);
        return noTerm && fence < Long.MAX_VALUE;
    }

    /**
     * This slot when {@code lease} is its current, unreleased term; otherwise the lease is lost.
     *
     * @param lease the lease a renew or release was given
     * @return this slot
     * @throws LeaseLostException naming why: another term started, or the term was released
     */
    public SlotState requireCurrentTermOf(SlotLease lease) {
        if (isCurrentTermOf(lease)) {
            return this;
        }
        String reason =
                fence != lease.fence() || !owner.equals(lease.ownerKey())
                        ? "the slot's current term has fence " + fence + " (owner '" + owner + "')"
                        : "the term was released";
        throw new LeaseLostException(lease.namespace(), lease.slot(), lease.fence(), reason);
    }

    /**
     * Whether {@code lease} is this slot's current, unreleased term.
     *
     * @param lease the lease
     * @return true when the slot's latest term is the lease's and was not released
     */
    public boolean isCurrentTermOf(SlotLease lease) {
        return fence == lease.fence() && owner.equals(lease.ownerKey()) && !released;
    }

    /**
     * A new term: fence + 1, incarnation + 1 for the same owner key (else 1), floor = next floor,
     * {@code expiresAt = t + ttl}, {@code ceiling = max(floor, expiresAt + tolerance)}. The ceiling
     * is never below the floor, so a window is at worst empty, never inverted (possible only when
     * the store's clock stepped back by more than the ttl).
     *
     * @param newOwner the new term's owner key
     * @param t the store's now
     * @param newTtl the new term's ttl
     * @param newTolerance the namespace's tolerance
     * @return the slot with the new term
     */
    public SlotState startTerm(String newOwner, Instant t, Duration newTtl, Duration newTolerance) {
        long newIncarnation = fence > 0 && owner.equals(newOwner) ? incarnation + 1 : 1;
        Instant newExpiresAt = t.plus(newTtl);
        Instant newCeiling = max(nextFloor, newExpiresAt.plus(newTolerance));
        return new SlotState(
                newOwner,
                false,
                fence + 1,
                newIncarnation,
                newTtl,
                newTolerance,
                nextFloor,
                newExpiresAt,
                newCeiling,
                newCeiling,
                Instant.EPOCH);
    }

    /**
     * The same term extended from store time {@code t}. The replaced values are lower bounds, so
     * neither expiresAt nor ceiling goes back when the store's clock does.
     *
     * @param t the store's now
     * @return the slot with its term extended
     */
    public SlotState renewedAt(Instant t) {
        Instant newExpiresAt = max(expiresAt, t.plus(ttl));
        Instant newCeiling = max(ceiling, newExpiresAt.plus(tolerance));
        return new SlotState(
                owner,
                false,
                fence,
                incarnation,
                ttl,
                tolerance,
                floor,
                newExpiresAt,
                newCeiling,
                max(nextFloor, newCeiling),
                Instant.EPOCH);
    }

    /**
     * The term ended at store time {@code t} by a holder that declares it stamped nothing at or
     * after {@code stampedBefore}: the next floor is {@code max(floor, min(ceiling,
     * stampedBefore))}. The store's clock plays no part in it: a clock that stepped back by less
     * than the time since the term's last write cannot be seen, and any bound taken from it could
     * fall under timestamps the holder used. A release that declares nothing passes the ceiling:
     * the whole window stays used.
     *
     * @param t the store's now
     * @param stampedBefore what the holder declares: it stamped nothing at or after it
     * @return the slot with its term released
     */
    public SlotState releasedAt(Instant t, Instant stampedBefore) {
        Instant bound = max(floor, min(ceiling, stampedBefore));
        return new SlotState(
                owner,
                true,
                fence,
                incarnation,
                ttl,
                tolerance,
                floor,
                expiresAt,
                ceiling,
                bound,
                t);
    }

    /**
     * Fence and next floor raised to at least the given values, never lowered. Advance only writes
     * a free slot, so a term it meets has expired or was released: the write ends it for good (a
     * later renew is refused), and the next floor keeps covering its window.
     *
     * @param fenceAtLeast the lowest fence afterwards
     * @param floorAtLeast the lowest next floor afterwards
     * @return the slot advanced
     */
    public SlotState advancedTo(long fenceAtLeast, Instant floorAtLeast) {
        boolean endsTerm = !owner.isEmpty();
        return new SlotState(
                owner,
                released || endsTerm,
                Math.max(fence, fenceAtLeast),
                incarnation,
                ttl,
                tolerance,
                floor,
                expiresAt,
                ceiling,
                max(nextFloor, floorAtLeast),
                released ? releasedAt : Instant.EPOCH);
    }

    /**
     * Whether the slot already reached a fence and a next floor, so that advancing to them changes
     * nothing.
     *
     * @param fenceAtLeast the fence
     * @param floorAtLeast the next floor
     * @return true when both are reached
     */
    public boolean isAtLeast(long fenceAtLeast, Instant floorAtLeast) {
        return fence >= fenceAtLeast && !nextFloor.isBefore(floorAtLeast);
    }

    /**
     * The slot's latest term as its holder's lease.
     *
     * @param namespace the namespace
     * @param slot the slot
     * @return the lease
     */
    public SlotLease toLease(String namespace, int slot) {
        return new SlotLease(
                namespace,
                slot,
                owner,
                fence,
                incarnation,
                floor,
                expiresAt,
                ceiling,
                ttl,
                tolerance);
    }

    /**
     * The slot as operators see it.
     *
     * @param namespace the namespace
     * @param slot the slot
     * @return the view
     */
    public SlotView toView(String namespace, int slot) {
        return new SlotView(
                namespace,
                slot,
                owner,
                fence,
                incarnation,
                floor,
                expiresAt,
                ceiling,
                nextFloor,
                released,
                releasedAt,
                ttl);
    }

    private static Instant max(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }

    private static Instant min(Instant a, Instant b) {
        return a.isBefore(b) ? a : b;
    }
}
