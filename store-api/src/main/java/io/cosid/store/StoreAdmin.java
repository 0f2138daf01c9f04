package io.cosid.store;

/**
 * Operator actions on a whole store, offered by backends that support them ({@link Store#admin()}).
 * Not for application code: these bypass the rules that keep values unique.
 */
public interface StoreAdmin {

    /**
     * Deletes everything the store holds: every range key, namespace, slot and owner index under
     * its root. Only with every instance that uses the store stopped and no lease unexpired: a
     * store still running would refuse the deleted nodes as corrupt, and a new one would start
     * counters and fences over.
     *
     * @throws StoreException if the backend fails
     * @throws IllegalStateException if the store was closed
     */
    void purge();
}
