package io.cosid.store;

import java.util.Optional;
import java.util.SortedMap;

/**
 * Hands out disjoint ranges of named counters (segment IDs).
 *
 * <p>A key that was never used starts at {@code next = 0}. Ranges of one key are disjoint across
 * all callers, processes and store instances, and without faults they are contiguous. When the
 * outcome of a write is unknown (the connection broke after it was sent) the store may send the
 * very same conditional write again, which lands only if the first did not; otherwise it abandons
 * that range rather than risk handing it out twice: a gap, never a duplicate.
 *
 * <p>Keys are paths: one or more non-empty segments separated by {@code /}; see {@link
 * StoreArguments#requireKey(String)} for the full rule. All methods are thread-safe and each
 * completes within the store's timeout or throws {@link StoreTimeoutException}.
 */
public interface RangeStore {

    /**
     * Reserves the next {@code size} values of a key's counter.
     *
     * @param key the counter's key
     * @param size how many values to reserve, at least 1
     * @return the range {@code [start, start + size)}, which nobody else is ever given
     * @throws IllegalArgumentException if the key is invalid or {@code size < 1}
     * @throws RangeExhaustedException if {@code next + size} would exceed {@link Long#MAX_VALUE};
     *     nothing is written
     * @throws RangeSealedException if the key was sealed
     * @throws StoreCorruptedException if the stored counter does not parse or was recreated behind
     *     the store's back
     * @throws StoreTimeoutException if the store's timeout ran out (the range, if written, is lost
     *     as a gap)
     * @throws IllegalStateException if the store was closed
     */
    Range acquire(String key, long size);

    /**
     * Reads a key's counter without allocating.
     *
     * @param key the counter's key
     * @return the counter's state, or empty if the key was never used
     * @throws IllegalArgumentException if the key is invalid
     * @throws StoreCorruptedException if the stored counter does not parse
     * @throws StoreTimeoutException if the store's timeout ran out
     * @throws IllegalStateException if the store was closed
     */
    Optional<RangeState> peek(String key);

    /**
     * Raises a key's counter to at least {@code atLeast}; never lowers it. Used to move counters
     * between stores without reissuing values.
     *
     * @param key the counter's key
     * @param atLeast the lowest value {@code next} may have afterwards, at least 0
     * @return the resulting {@code next}: {@code max(next, atLeast)}
     * @throws IllegalArgumentException if the key is invalid or {@code atLeast < 0}
     * @throws RangeSealedException if the key was sealed (even when nothing would change)
     * @throws StoreCorruptedException if the stored counter does not parse or was recreated
     * @throws StoreTimeoutException if the store's timeout ran out
     * @throws IllegalStateException if the store was closed
     */
    long advance(String key, long atLeast);

    /**
     * Stops allocation for a key for good, for example before migrating it to another store.
     * Idempotent. A key that was never used is sealed at 0.
     *
     * @param key the counter's key
     * @return the final {@code next}: every value below it may have been handed out, none at or
     *     above it
     * @throws IllegalArgumentException if the key is invalid
     * @throws StoreCorruptedException if the stored counter does not parse or was recreated
     * @throws StoreTimeoutException if the store's timeout ran out
     * @throws IllegalStateException if the store was closed
     */
    long seal(String key);

    /**
     * Lists every key of this store with its state, for operators and tools.
     *
     * @return the keys in lexicographic order with their state; unmodifiable
     * @throws StoreCorruptedException if a stored counter does not parse
     * @throws StoreTimeoutException if the store's timeout ran out
     * @throws IllegalStateException if the store was closed
     */
    SortedMap<String, RangeState> list();
}
