package io.cosid.store;

import java.util.Objects;

/**
 * A reserved range {@code [start, end)} of a key's counter, handed out by {@link
 * RangeStore#acquire}. The values in it belong to the caller alone: no other caller, process or
 * store instance is ever given any of them.
 *
 * @param key the counter's key
 * @param start the first value of the range (inclusive)
 * @param end the end of the range (exclusive); {@code end > start}
 */
public record Range(String key, long start, long end) {

    /**
     * Checks the range's bounds.
     *
     * @param key as described for the record
     * @param start as described for the record
     * @param end as described for the record
     * @throws IllegalArgumentException if {@code start < 0} or {@code end <= start}
     */
    public Range {
        Objects.requireNonNull(key, "key");
        if (start < 0 || end <= start) {
            throw new IllegalArgumentException(
                    "range of key '"
                            + key
                            + "' must have 0 <= start < end, got ["
                            + start
                            + ", "
                            + end
                            + ")");
        }
    }

    /**
     * The number of values in the range.
     *
     * @return {@code end - start}
     */
    public long size() {
        return end - start;
    }

    /**
     * Whether a value lies in this range.
     *
     * @param value a counter value
     * @return {@code true} when {@code start <= value < end}
     */
    public boolean contains(long value) {
        return value >= start && value < end;
    }

    /**
     * Whether this range shares a value with another range of the same key.
     *
     * @param other another range
     * @return {@code true} when both have the same key and their intervals intersect
     */
    public boolean overlaps(Range other) {
        return key.equals(other.key) && start < other.end && other.start < end;
    }
}
