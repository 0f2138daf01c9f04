package io.cosid.store;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * What one slot looks like in the store, for operators and tools ({@link SlotLeaseStore#inspect}).
 *
 * <p>A slot that was never held has {@code fence == 0}, an empty {@code ownerKey} and all instants
 * at the epoch, unless {@link SlotLeaseStore#advance} raised its fence or next floor.
 *
 * @param namespace {@link SlotTerm#namespace()}
 * @param slot {@link SlotTerm#slot()}
 * @param ownerKey {@link SlotTerm#ownerKey()} of the latest term, empty if it was never held
 * @param fence {@link SlotTerm#fence()} of the latest term, 0 if never held
 * @param incarnation {@link SlotTerm#incarnation()} of the latest term, 0 if never held
 * @param floor {@link SlotTerm#floor()} of the latest term
 * @param expiresAt {@link SlotTerm#expiresAt()} of the latest term
 * @param ceiling {@link SlotTerm#ceiling()} of the latest term
 * @param nextFloor the floor the next term will get
 * @param released whether the latest term was released (or ended by {@link SlotLeaseStore#advance})
 * @param releasedAt when the latest term was released by the store's clock, the epoch if it was not
 * @param ttl {@link SlotTerm#ttl()} of the latest term, zero if never held
 */
public record SlotView(
        String namespace,
        int slot,
        String ownerKey,
        long fence,
        long incarnation,
        Instant floor,
        Instant expiresAt,
        Instant ceiling,
        Instant nextFloor,
        boolean released,
        Instant releasedAt,
        Duration ttl)
        implements SlotTerm {

    /**
     * Checks that no value is null.
     *
     * @param namespace as described for the record
     * @param slot as described for the record
     * @param ownerKey as described for the record
     * @param fence as described for the record
     * @param incarnation as described for the record
     * @param floor as described for the record
     * @param expiresAt as described for the record
     * @param ceiling as described for the record
     * @param nextFloor as described for the record
     * @param released as described for the record
     * @param releasedAt as described for the record
     * @param ttl as described for the record
     * @throws NullPointerException if a value is null
     */
    public SlotView {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(ownerKey, "ownerKey");
        Objects.requireNonNull(floor, "floor");
        Objects.requireNonNull(expiresAt, "expiresAt");
        Objects.requireNonNull(ceiling, "ceiling");
        Objects.requireNonNull(nextFloor, "nextFloor");
        Objects.requireNonNull(releasedAt, "releasedAt");
        Objects.requireNonNull(ttl, "ttl");
    }

    /**
     * Whether the slot is held at a store instant: its latest term was neither released nor has
     * expired.
     *
     * @param now an instant of the store's clock
     * @return {@code true} when a lease of this slot is in force at {@code now}
     */
    public boolean isHeldAt(Instant now) {
        return fence > 0 && !ownerKey.isEmpty() && !released && now.isBefore(expiresAt);
    }

    /**
     * Since when the slot has been free, for operators: the release time, or the expiry of a term
     * that was not released.
     *
     * @param now an instant of the store's clock
     * @return the instant the slot became free, or empty while it is held or if it was never held
     */
    public Optional<Instant> freeSince(Instant now) {
        if (isHeldAt(now) || ownerKey.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(released && !releasedAt.equals(Instant.EPOCH) ? releasedAt : expiresAt);
    }

    /**
     * The holder at a store instant.
     *
     * @param now an instant of the store's clock
     * @return the owner key holding the slot at {@code now}, or empty when the slot is free
     */
    public Optional<String> holderAt(Instant now) {
        return isHeldAt(now) ? Optional.of(ownerKey) : Optional.empty();
    }
}
