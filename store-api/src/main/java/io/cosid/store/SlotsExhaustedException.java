package io.cosid.store;

/** No slot of a namespace was free. Nothing was written. */
public class SlotsExhaustedException extends StoreException {

    /** The namespace this failure is about. */
    private final String namespace;

    /** The limit this failure is about. */
    private final int limit;

    /**
     * Creates the exception.
     *
     * @param namespace the namespace
     * @param limit its number of slots, all held
     */
    public SlotsExhaustedException(String namespace, int limit) {
        super(
                "namespace '"
                        + namespace
                        + "' has no free slot: all "
                        + limit
                        + " slots are held; wait for one to expire or be released, or raise the"
                        + " limit");
        this.namespace = namespace;
        this.limit = limit;
    }

    /**
     * The namespace.
     *
     * @return the namespace's name
     */
    public String namespace() {
        return namespace;
    }

    /**
     * The namespace's number of slots.
     *
     * @return the limit
     */
    public int limit() {
        return limit;
    }
}
