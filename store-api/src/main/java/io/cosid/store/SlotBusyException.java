package io.cosid.store;

import java.time.Instant;

/**
 * {@link SlotLeaseStore#advance} would change a slot that is held. Advance only slots nobody holds,
 * e.g. on a migration target before any instance starts. Nothing was written.
 */
public class SlotBusyException extends StoreException {

    /** The namespace this failure is about. */
    private final String namespace;

    /** The slot this failure is about. */
    private final int slot;

    /** The holder this failure is about. */
    private final String holder;

    /**
     * Creates the exception.
     *
     * @param namespace the namespace
     * @param slot the slot
     * @param holder the owner key that holds it
     * @param expiresAt when the holder's lease expires unless renewed
     */
    public SlotBusyException(String namespace, int slot, String holder, Instant expiresAt) {
        super(
                "slot "
                        + slot
                        + " of namespace '"
                        + namespace
                        + "' is held by '"
                        + holder
                        + "' until "
                        + expiresAt
                        + "; advance only free slots");
        this.namespace = namespace;
        this.slot = slot;
        this.holder = holder;
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
     * The holder.
     *
     * @return the owner key holding the slot
     */
    public String holder() {
        return holder;
    }
}
