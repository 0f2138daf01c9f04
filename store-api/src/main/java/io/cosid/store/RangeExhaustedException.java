package io.cosid.store;

/**
 * A key's counter cannot hand out the requested range without passing {@link Long#MAX_VALUE}.
 * Nothing was written; a smaller range may still fit.
 */
public class RangeExhaustedException extends StoreException {

    /** The key this failure is about. */
    private final String key;

    /** The next this failure is about. */
    private final long next;

    /** The requestedSize this failure is about. */
    private final long requestedSize;

    /**
     * Creates the exception.
     *
     * @param key the key
     * @param next the key's current {@code next}
     * @param requestedSize the size that did not fit
     */
    public RangeExhaustedException(String key, long next, long requestedSize) {
        super(
                "range key '"
                        + key
                        + "' is exhausted: next="
                        + next
                        + " + size="
                        + requestedSize
                        + " exceeds "
                        + Long.MAX_VALUE
                        + " (at most "
                        + (Long.MAX_VALUE - next)
                        + " values are left)");
        this.key = key;
        this.next = next;
        this.requestedSize = requestedSize;
    }

    /**
     * The key.
     *
     * @return the key
     */
    public String key() {
        return key;
    }

    /**
     * The key's {@code next} when the request was refused.
     *
     * @return the current next value
     */
    public long next() {
        return next;
    }

    /**
     * The size that was asked for.
     *
     * @return the requested size
     */
    public long requestedSize() {
        return requestedSize;
    }
}
