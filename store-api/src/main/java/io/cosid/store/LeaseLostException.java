package io.cosid.store;

/**
 * A lease's term is over: the slot was taken by a later term, released, or its fence was advanced.
 * The holder must stop using the lease at once. Nothing was written.
 */
public class LeaseLostException extends StoreException {

    /** The namespace this failure is about. */
    private final String namespace;

    /** The slot this failure is about. */
    private final int slot;

    /** The fence this failure is about. */
    private final long fence;

    /**
     * Creates the exception.
     *
     * @param namespace the namespace
     * @param slot the slot
     * @param fence the fence of the lost lease
     * @param reason what the store found instead, for the message
     */
    public LeaseLostException(String namespace, int slot, long fence, String reason) {
        super(
                "lease on slot "
                        + slot
                        + " of namespace '"
                        + namespace
                        + "' with fence "
                        + fence
                        + " is lost: "
                        + reason);
        this.namespace = namespace;
        this.slot = slot;
        this.fence = fence;
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
     * The slot.
     *
     * @return the slot number
     */
    public int slot() {
        return slot;
    }

    /**
     * The fence of the lost lease.
     *
     * @return the fence
     */
    public long fence() {
        return fence;
    }
}
