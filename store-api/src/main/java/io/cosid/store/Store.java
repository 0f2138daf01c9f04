package io.cosid.store;

import java.util.Optional;

/**
 * One configured store: a {@link RangeStore} and a {@link SlotLeaseStore} on the same backend, with
 * one lifecycle. Open it with {@link Stores#open}, or with a backend's own entry point.
 *
 * <p>After {@link #close()} every operation of both stores throws {@link IllegalStateException}.
 */
public interface Store extends AutoCloseable {

    /**
     * The store's name, as configured.
     *
     * @return the name
     */
    String name();

    /**
     * The backend's type, as a {@link StoreProvider#type()} names it.
     *
     * @return the type, e.g. {@code zookeeper}
     */
    String type();

    /**
     * The range store.
     *
     * @return the range store of this store
     */
    RangeStore ranges();

    /**
     * The slot lease store.
     *
     * @return the slot lease store of this store
     */
    SlotLeaseStore slots();

    /**
     * Operator actions on the whole store, such as purging it, where the backend offers them.
     *
     * @return the admin actions, or empty when the backend has none
     */
    default Optional<StoreAdmin> admin() {
        return Optional.empty();
    }

    /**
     * Releases the store's resources (a client it built, for example). Idempotent. Leases are not
     * released: release them first if the instance is shutting down for good.
     */
    @Override
    void close();
}
