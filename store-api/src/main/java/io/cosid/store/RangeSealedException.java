package io.cosid.store;

/** A key was sealed: it hands out no more ranges and cannot be advanced. */
public class RangeSealedException extends StoreException {

    /** The key this failure is about. */
    private final String key;

    /** The finalNext this failure is about. */
    private final long finalNext;

    /**
     * Creates the exception.
     *
     * @param key the sealed key
     * @param finalNext the key's final {@code next}
     */
    public RangeSealedException(String key, long finalNext) {
        super(
                "range key '"
                        + key
                        + "' is sealed at "
                        + finalNext
                        + "; it hands out no more ranges");
        this.key = key;
        this.finalNext = finalNext;
    }

    /**
     * The sealed key.
     *
     * @return the key
     */
    public String key() {
        return key;
    }

    /**
     * The key's final {@code next}.
     *
     * @return the value at which the key was sealed
     */
    public long finalNext() {
        return finalNext;
    }
}
