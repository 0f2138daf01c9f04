package io.cosid.store;

/** A namespace was used before it was defined with {@link SlotLeaseStore#define}. */
public class NamespaceNotFoundException extends StoreException {

    /** The namespace this failure is about. */
    private final String namespace;

    /**
     * Creates the exception.
     *
     * @param namespace the undefined namespace
     */
    public NamespaceNotFoundException(String namespace) {
        super(
                "namespace '"
                        + namespace
                        + "' is not defined; define it first with SlotLeaseStore.define");
        this.namespace = namespace;
    }

    /**
     * The undefined namespace.
     *
     * @return the namespace's name
     */
    public String namespace() {
        return namespace;
    }
}
