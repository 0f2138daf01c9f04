package io.cosid.store.spi;

import io.cosid.store.Namespace;
import io.cosid.store.NamespaceConflictException;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * The rules of namespaces and owner indexes that every backend applies the same way
 * (docs/contract.md, "Namespaces" and "Terms and leases").
 */
public final class NamespaceRules {

    /** How many recently held slots an owner index keeps per owner key. */
    public static final int OWNER_INDEX_SIZE = 8;

    private NamespaceRules() {}

    /**
     * Whether defining {@code requested} over {@code current} changes it: the same values change
     * nothing, a larger limit raises it; another tolerance or a smaller limit is refused.
     *
     * @param current the namespace as stored
     * @param requested the namespace a caller defines
     * @return {@code true} when the stored namespace is to be replaced by {@code requested}
     * @throws NamespaceConflictException if the tolerance differs or the limit would go down;
     *     nothing is written
     */
    public static boolean redefines(Namespace current, Namespace requested) {
        if (!current.tolerance().equals(requested.tolerance())) {
            throw new NamespaceConflictException(current, requested, "the tolerance cannot change");
        }
        if (requested.limit() < current.limit()) {
            throw new NamespaceConflictException(
                    current, requested, "the limit can only be raised");
        }
        return requested.limit() > current.limit();
    }

    /**
     * An owner index after an acquire: the acquired slot first, then the other slots held most
     * recently, at most {@link #OWNER_INDEX_SIZE}.
     *
     * @param slot the slot just acquired
     * @param previous the index before, most recent first
     * @return the index after
     */
    public static List<Integer> ownerIndexAfter(int slot, List<Integer> previous) {
        LinkedHashSet<Integer> updated = new LinkedHashSet<>();
        updated.add(slot);
        updated.addAll(previous);
        return updated.stream().limit(OWNER_INDEX_SIZE).toList();
    }
}
