package io.cosid.store;

import java.util.Optional;
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
     * The type of the application's own object (a client, a connection pool) this backend can open
     * a store on instead of connecting by itself, so that an application container (the Spring Boot
     * starter) can hand one over without knowing the backend.
     *
     * @return the type, or empty (the default) when the backend always connects by itself
     */
    default Optional<Class<?>> applicationClientType() {
        return Optional.empty();
    }

    /**
     * Whether {@code config} asks the store to connect by itself (it names a URL or a client's
     * options), so that an application's client is not used even where there is one.
     *
     * @param config the store's configuration, its option keys spelled as {@link #optionKeys()}
     * @return true (the default) when the store connects by itself
     */
    default boolean connectsByItself(StoreConfig config) {
        return true;
    }

    /**
     * Opens a store on the application's own client, of {@link #applicationClientType()}; closing
     * the store leaves the client open.
     *
     * @param config the store's configuration, whose {@code type} is this provider's
     * @param client the application's client
     * @return the open store
     * @throws IllegalArgumentException if {@code client} is not of the backend's client type, or an
     *     option is unknown, malformed or one a caller's client cannot take
     * @throws UnsupportedOperationException if the backend opens no store on a client of the
     *     application's (the default)
     * @throws StoreException if the backend cannot be reached
     */
    default Store open(StoreConfig config, Object client) {
        throw new UnsupportedOperationException(
                "store type '" + type() + "' opens no store on an application's client");
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
