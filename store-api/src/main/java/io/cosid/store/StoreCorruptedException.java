package io.cosid.store;

/**
 * Stored data does not parse, or a node was deleted and recreated behind the store's back. The
 * store never overwrites such data: an operator must look at it.
 */
public class StoreCorruptedException extends StoreException {

    /** The location this failure is about. */
    private final String location;

    /**
     * Creates the exception.
     *
     * @param location what holds the bad data: a range key, namespace, slot or node path
     * @param problem what is wrong with it
     */
    public StoreCorruptedException(String location, String problem) {
        super(
                "corrupt store data at "
                        + location
                        + ": "
                        + problem
                        + " (left untouched; an operator must repair it)");
        this.location = location;
    }

    /**
     * What holds the bad data.
     *
     * @return a range key, namespace, slot or node path
     */
    public String location() {
        return location;
    }
}
