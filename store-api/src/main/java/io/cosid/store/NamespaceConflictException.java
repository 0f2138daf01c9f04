package io.cosid.store;

/**
 * {@link SlotLeaseStore#define} asked for values an existing namespace cannot take: a lower limit,
 * or another tolerance. Nothing was written.
 */
public class NamespaceConflictException extends StoreException {

    /** The existing this failure is about. */
    private final Namespace existing;

    /** The requested this failure is about. */
    private final Namespace requested;

    /**
     * Creates the exception.
     *
     * @param existing the namespace as stored
     * @param requested the namespace as asked for
     * @param rule the rule that refused it
     */
    public NamespaceConflictException(Namespace existing, Namespace requested, String rule) {
        super(
                "namespace '"
                        + existing.name()
                        + "' exists with limit "
                        + existing.limit()
                        + " and tolerance "
                        + StoreConfig.formatDuration(existing.tolerance())
                        + "; cannot define it with limit "
                        + requested.limit()
                        + " and tolerance "
                        + StoreConfig.formatDuration(requested.tolerance())
                        + ": "
                        + rule);
        this.existing = existing;
        this.requested = requested;
    }

    /**
     * The namespace as stored.
     *
     * @return the existing namespace
     */
    public Namespace existing() {
        return existing;
    }

    /**
     * The namespace as asked for.
     *
     * @return the requested namespace
     */
    public Namespace requested() {
        return requested;
    }
}
