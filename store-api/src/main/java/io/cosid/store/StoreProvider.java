package io.cosid.store;

import java.util.Set;

/**
 * A backend, found by {@link Stores} with {@link java.util.ServiceLoader}: list the implementing
 * class in {@code META-INF/services/io.cosid.store.StoreProvider}. It needs a public no-argument
 * constructor.
 */
public interface StoreProvider {

    /**
     * The type name users write in {@code cosid.stores.<name>.type}; unique among providers.
     *
     * @return the type, e.g. {@code zookeeper} or {@code in-memory}
     */
    String type();

    /**
     * The option keys this backend knows, as it spells them; {@link Stores#open(StoreConfig)}
     * matches a configuration's keys to them ignoring case and dashes ({@link
     * StoreConfig#withOptionKeysAs}), since environment variables and some binders lowercase keys.
     *
     * @return the known keys; empty (the default) when the provider does not say, and keys are
     *     taken as written
     */
    default Set<String> optionKeys() {
        return Set.of();
    }

    /**
     * Opens a store.
     *
     * @param config the store's configuration, whose {@code type} is this provider's
     * @return the open store
     * @throws IllegalArgumentException naming the option, if an option is unknown or malformed
     * @throws StoreException if the backend cannot be reached
     */
    Store open(StoreConfig config);
}
