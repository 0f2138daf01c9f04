package io.cosid.store;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeMap;

/**
 * The entry point: opens a configured store with the backend its {@code type} names.
 *
 * <pre>{@code
 * // settings: cosid.stores.main.type = in-memory
 * try (Store store = Stores.open("main", settings)) {
 *     Range range = store.ranges().acquire("order-id", 1000);
 * }
 * }</pre>
 */
public final class Stores {

    private Stores() {}

    /**
     * Opens a store.
     *
     * @param config the store's configuration
     * @return the open store; the caller closes it
     * @throws IllegalArgumentException if no backend has the configured type (listing those
     *     available) or an option is unknown or malformed
     * @throws IllegalStateException if two backends on the class path claim the same type
     */
    public static Store open(StoreConfig config) {
        Map<String, StoreProvider> providers = providers();
        StoreProvider provider = providers.get(config.type());
        if (provider == null) {
            throw new IllegalArgumentException(
                    "unknown store type '"
                            + config.type()
                            + "' for store '"
                            + config.name()
                            + "'; available types: "
                            + providers.keySet()
                            + " (a backend is available when its jar, e.g. cosid-store-zookeeper,"
                            + " is on the class path)");
        }
        return provider.open(config.withOptionKeysAs(provider.optionKeys()));
    }

    /**
     * Opens a store configured under {@code cosid.stores.<name>}.
     *
     * @param name the store's name
     * @param settings nested maps or flat dotted keys, see {@link StoreConfig#parseAll(Map)}
     * @return the open store; the caller closes it
     * @throws IllegalArgumentException if the store is not configured, its settings are malformed
     *     or its type is unknown
     */
    public static Store open(String name, Map<String, ?> settings) {
        return open(StoreConfig.parse(name, settings));
    }

    /**
     * The backend types available on the class path.
     *
     * @return the types, sorted
     * @throws IllegalStateException if two backends claim the same type
     */
    public static Set<String> types() {
        return providers().keySet();
    }

    /**
     * The backend of a type, for an application container that opens stores on the application's
     * own clients ({@link StoreProvider#applicationClientType()}).
     *
     * @param type the type, as configured
     * @return its provider, or empty when no backend on the class path has that type
     * @throws IllegalStateException if two backends claim the same type
     */
    public static Optional<StoreProvider> provider(String type) {
        return Optional.ofNullable(providers().get(type));
    }

    private static Map<String, StoreProvider> providers() {
        return byType(ServiceLoader.load(StoreProvider.class, Stores.class.getClassLoader()));
    }

    /** The providers by type; fails when two claim the same type. */
    static Map<String, StoreProvider> byType(Iterable<StoreProvider> providers) {
        Map<String, List<StoreProvider>> byType = new TreeMap<>();
        for (StoreProvider provider : providers) {
            byType.computeIfAbsent(provider.type(), t -> new ArrayList<>()).add(provider);
        }
        Map<String, StoreProvider> unique = new TreeMap<>();
        byType.forEach(
                (type, list) -> {
                    if (list.size() > 1) {
                        throw new IllegalStateException(
                                "store type '"
                                        + type
                                        + "' is provided more than once: "
                                        + list.stream().map(p -> p.getClass().getName()).toList()
                                        + "; keep one of these jars on the class path");
                    }
                    unique.put(type, list.get(0));
                });
        return unique;
    }
}
