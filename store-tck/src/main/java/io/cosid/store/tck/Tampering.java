package io.cosid.store.tck;

/**
 * Changes stored data behind the stores' backs, as an operator or a bug might, so that the TCK can
 * check that stores report it and leave it untouched.
 */
public interface Tampering {

    /**
     * Replaces a range key's stored data with text that does not parse.
     *
     * @param key the range key
     * @param garbage the text to store
     */
    void corruptRange(String key, String garbage);

    /**
     * Writes a valid state over a range key's node in place (the same node), as an operator's write
     * by hand would: for example a lower next value, or an unsealed key.
     *
     * @param key the range key, which must exist
     * @param next the next value to store
     * @param sealed whether the stored key is sealed
     */
    void rewriteRange(String key, long next, boolean sealed);

    /**
     * Deletes a slot's node, as an operator might by hand.
     *
     * @param namespace the namespace
     * @param slot the slot, whose node must exist
     */
    void deleteSlot(String namespace, int slot);

    /**
     * Deletes a range key's node and creates it again with the same data.
     *
     * @param key the range key, which must exist
     */
    void recreateRange(String key);

    /**
     * Replaces a namespace's stored data with text that does not parse.
     *
     * @param namespace the namespace
     * @param garbage the text to store
     */
    void corruptNamespace(String namespace, String garbage);

    /**
     * Replaces a slot's stored data with text that does not parse.
     *
     * @param namespace the namespace
     * @param slot the slot
     * @param garbage the text to store
     */
    void corruptSlot(String namespace, int slot, String garbage);

    /**
     * Replaces an owner index entry with text that does not parse.
     *
     * @param namespace the namespace
     * @param ownerKey the owner key
     * @param garbage the text to store
     */
    void corruptOwnerIndex(String namespace, String ownerKey, String garbage);

    /**
     * Everything stored (apart from a clock the store writes to read its time), as a value that
     * equals another snapshot exactly when nothing was written in between.
     *
     * @return the snapshot
     */
    Object snapshot();

    /**
     * Everything stored, the clocks a store writes to read its time included: what a call refused
     * for a bad argument, which must write nothing at all, is checked against.
     *
     * @return the snapshot
     */
    default Object fullSnapshot() {
        return snapshot();
    }
}
