/**
 * cosid-store: fleet-unique counter ranges and machine-id slot leases for ID generators.
 *
 * <p>The API is two stores behind one {@link io.cosid.store.Store}:
 *
 * <ul>
 *   <li>{@link io.cosid.store.RangeStore} hands out disjoint ranges {@code [start, end)} of a key's
 *       counter (segment IDs); a key can be sealed and advanced, never lowered.
 *   <li>{@link io.cosid.store.SlotLeaseStore} hands out machine-id slots {@code 0..limit-1} of a
 *       namespace as leases with a TTL, a strictly increasing fence and a timestamp window {@code
 *       [floor, ceiling)} that never overlaps the previous holder's.
 * </ul>
 *
 * <p>{@link io.cosid.store.Stores} opens a store by its configured {@code type}; backends plug in
 * through {@link io.cosid.store.StoreProvider}. Every failure is a {@link
 * io.cosid.store.StoreException} (unchecked) or, for bad arguments, an {@link
 * java.lang.IllegalArgumentException} that names the argument and the rule. The semantics are in
 * the project's {@code docs/contract.md}.
 */
@NullMarked
package io.cosid.store;

import org.jspecify.annotations.NullMarked;
