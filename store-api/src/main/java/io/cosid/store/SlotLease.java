package io.cosid.store;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * One term of a machine-id slot held by one owner, returned by {@link SlotLeaseStore#acquire} and
 * {@link SlotLeaseStore#renew}.
 *
 * <p>The holder may stamp only timestamps {@code t} with {@code floor <= t < ceiling}, and must
 * stop using the lease once {@code ttl} has passed on its monotonic clock since it sent the acquire
 * or renew request, whichever comes first. {@link LeaseGuard} implements that rule.
 *
 * @param namespace {@link SlotTerm#namespace()}
 * @param slot {@link SlotTerm#slot()}
 * @param ownerKey {@link SlotTerm#ownerKey()}: the owner that holds this term
 * @param fence {@link SlotTerm#fence()}, 1 or more
 * @param incarnation {@link SlotTerm#incarnation()}, 1 or more
 * @param floor {@link SlotTerm#floor()}
 * @param expiresAt {@link SlotTerm#expiresAt()}
 * @param ceiling {@link SlotTerm#ceiling()}
 * @param ttl {@link SlotTerm#ttl()}
 * @param tolerance the namespace's clock-skew tolerance when the term started
 */
public record SlotLease(
        String namespace,
        int slot,
        String ownerKey,
        long fence,
        long incarnation,
        Instant floor,
        Instant expiresAt,
        Instant ceiling,
        Duration ttl,
        Duration tolerance)
        implements SlotTerm {

    /**
     * Checks the lease's values.
     *
     * @param namespace as described for the record
     * @param slot as described for the record
     * @param ownerKey as described for the record
     * @param fence as described for the record
     * @param incarnation as described for the record
     * @param floor as described for the record
     * @param expiresAt as described for the record
     * @param ceiling as described for the record
     * @param ttl as described for the record
     * @param tolerance as described for the record
     * @throws NullPointerException if a value is null
     * @throws IllegalArgumentException if {@code slot < 0}, {@code fence < 1}, {@code incarnation <
     *     1} or {@code ceiling < expiresAt}
     */
    public SlotLease {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(ownerKey, "ownerKey");
        Objects.requireNonNull(floor, "floor");
        Objects.requireNonNull(expiresAt, "expiresAt");
        Objects.requireNonNull(ceiling, "ceiling");
        Objects.requireNonNull(ttl, "ttl");
        Objects.requireNonNull(tolerance, "tolerance");
        if (slot < 0 || fence < 1 || incarnation < 1 || ceiling.isBefore(expiresAt)) {
            throw new IllegalArgumentException(
                    "inconsistent lease: slot="
                            + slot
                            + ", fence="
                            + fence
                            + ", incarnation="
                            + incarnation
                            + ", expiresAt="
                            + expiresAt
                            + ", ceiling="
                            + ceiling);
        }
    }
}
