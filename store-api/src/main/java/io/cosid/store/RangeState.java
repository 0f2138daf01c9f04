package io.cosid.store;

/**
 * What a key's counter looks like in the store, as seen by {@link RangeStore#peek} and {@link
 * RangeStore#list()}.
 *
 * @param next the first value the next {@link RangeStore#acquire} would hand out
 * @param sealed whether the key was sealed: no further ranges, ever
 */
public record RangeState(long next, boolean sealed) {

    /**
     * Checks the state.
     *
     * @param next as described for the record
     * @param sealed as described for the record
     * @throws IllegalArgumentException if {@code next < 0}
     */
    public RangeState {
        if (next < 0) {
            throw new IllegalArgumentException("next must be >= 0, got " + next);
        }
    }
}
