package io.cosid.store;

import java.time.Duration;
import java.util.Objects;

/**
 * A namespace of machine-id slots {@code 0..limit-1}, as defined by {@link SlotLeaseStore#define}.
 *
 * @param name the namespace's name: one path segment, see {@link
 *     StoreArguments#requireNamespace(String)}
 * @param limit the number of slots; slots are {@code 0..limit-1}
 * @param tolerance the clock skew allowed between holders and the store; it pads each lease's
 *     {@code ceiling} beyond its {@code expiresAt}
 */
public record Namespace(String name, int limit, Duration tolerance) {

    /**
     * The tolerance cosid-store's integrations define namespaces with when nobody chose one:
     * CosId's machine-id distributor, the Spring Boot starter's {@code
     * cosid-store.machine.tolerance} and {@code cosid-store migrate --from-cosid-zookeeper}, so
     * that a namespace one of them defined is accepted by the others. A namespace's tolerance never
     * changes once defined.
     */
    public static final Duration DEFAULT_TOLERANCE = Duration.ofSeconds(1);

    /**
     * Checks the namespace's values with the same rules as {@link SlotLeaseStore#define}.
     *
     * @param name as described for the record
     * @param limit as described for the record
     * @param tolerance as described for the record
     * @throws IllegalArgumentException if a value breaks its rule
     */
    public Namespace {
        StoreArguments.requireNamespace(name);
        StoreArguments.requireLimit(limit);
        StoreArguments.requireTolerance(tolerance);
    }

    /**
     * Whether a slot number belongs to this namespace.
     *
     * @param slot a slot number
     * @return {@code true} when {@code 0 <= slot < limit}
     */
    public boolean contains(int slot) {
        return slot >= 0 && slot < limit;
    }

    @Override
    public String toString() {
        return "Namespace["
                + Objects.toString(name)
                + ", limit="
                + limit
                + ", tolerance="
                + tolerance
                + "]";
    }
}
