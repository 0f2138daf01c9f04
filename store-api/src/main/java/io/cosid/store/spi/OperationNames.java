package io.cosid.store.spi;

/**
 * The names of store operations as messages show them (a timeout names the operation that ran out
 * of time): the same words on every backend, so that an operator's search for one finds them all.
 */
public final class OperationNames {

    private OperationNames() {}

    /**
     * The operation named {@code acquire on range key 'k'}.
     *
     * @param key the range key
     * @return "acquire on range key 'k'"
     */
    public static String rangeAcquire(String key) {
        return "acquire on range key '" + key + "'";
    }

    /**
     * The operation named {@code peek on range key 'k'}.
     *
     * @param key the range key
     * @return "peek on range key 'k'"
     */
    public static String rangePeek(String key) {
        return "peek on range key '" + key + "'";
    }

    /**
     * The operation named {@code advance on range key 'k'}.
     *
     * @param key the range key
     * @return "advance on range key 'k'"
     */
    public static String rangeAdvance(String key) {
        return "advance on range key '" + key + "'";
    }

    /**
     * The operation named {@code seal on range key 'k'}.
     *
     * @param key the range key
     * @return "seal on range key 'k'"
     */
    public static String rangeSeal(String key) {
        return "seal on range key '" + key + "'";
    }

    /**
     * The operation named {@code list of range keys}.
     *
     * @return "list of range keys"
     */
    public static String rangeList() {
        return "list of range keys";
    }

    /**
     * The operation named {@code define of namespace 'ns'}.
     *
     * @param namespace the namespace
     * @return "define of namespace 'ns'"
     */
    public static String define(String namespace) {
        return "define of namespace '" + namespace + "'";
    }

    /**
     * The operation named {@code read of namespace 'ns'}.
     *
     * @param namespace the namespace
     * @return "read of namespace 'ns'"
     */
    public static String readNamespace(String namespace) {
        return "read of namespace '" + namespace + "'";
    }

    /**
     * The operation named {@code list of namespaces}.
     *
     * @return "list of namespaces"
     */
    public static String listNamespaces() {
        return "list of namespaces";
    }

    /**
     * The operation named {@code acquire in namespace 'ns' for owner 'o'}.
     *
     * @param namespace the namespace
     * @param ownerKey the owner key
     * @return "acquire in namespace 'ns' for owner 'o'"
     */
    public static String acquire(String namespace, String ownerKey) {
        return "acquire in namespace '" + namespace + "' for owner '" + ownerKey + "'";
    }

    /**
     * The operation named {@code renew of slot 3 in namespace 'ns'}.
     *
     * @param namespace the namespace
     * @param slot the slot
     * @return "renew of slot 3 in namespace 'ns'"
     */
    public static String renew(String namespace, int slot) {
        return "renew of slot " + slot + " in namespace '" + namespace + "'";
    }

    /**
     * The operation named {@code release of slot 3 in namespace 'ns'}.
     *
     * @param namespace the namespace
     * @param slot the slot
     * @return "release of slot 3 in namespace 'ns'"
     */
    public static String release(String namespace, int slot) {
        return "release of slot " + slot + " in namespace '" + namespace + "'";
    }

    /**
     * The operation named {@code advance of slot 3 in namespace 'ns'}.
     *
     * @param namespace the namespace
     * @param slot the slot
     * @return "advance of slot 3 in namespace 'ns'"
     */
    public static String slotAdvance(String namespace, int slot) {
        return "advance of slot " + slot + " in namespace '" + namespace + "'";
    }

    /**
     * The operation named {@code inspect of namespace 'ns'}.
     *
     * @param namespace the namespace
     * @return "inspect of namespace 'ns'"
     */
    public static String inspect(String namespace) {
        return "inspect of namespace '" + namespace + "'";
    }

    /**
     * The operation named {@code purge of store 'main'}.
     *
     * @param store the store's name
     * @return "purge of store 'main'"
     */
    public static String purge(String store) {
        return "purge of store '" + store + "'";
    }
}
