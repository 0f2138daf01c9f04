package io.cosid.store.spring;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * cosid-store's settings under {@code cosid}: the stores by name, whether their operations are
 * observed, and the CosId machine-id distributor's.
 *
 * <pre>{@code
 * cosid:
 *   stores:
 *     main:
 *       type: zookeeper
 *       timeout: 3s
 *       options:
 *         connectString: zk-1:2181,zk-2:2181
 * }</pre>
 */
@ConfigurationProperties("cosid")
public class CosIdStoreProperties {

    /** The stores, by name: each becomes a {@code Store} bean. */
    private Map<String, StoreSettings> stores = new LinkedHashMap<>();

    /** The CosId machine-id distributor on the store's slot leases. */
    private StoreMachine storeMachine = new StoreMachine();

    /** Micrometer observations (spans) around every store operation. */
    private Observations observations = new Observations();

    /** Creates empty settings; Spring binds them. */
    public CosIdStoreProperties() {}

    /**
     * The observation settings.
     *
     * @return the settings
     */
    public Observations getObservations() {
        return observations;
    }

    /**
     * Sets the observation settings.
     *
     * @param observations the settings
     */
    public void setObservations(Observations observations) {
        this.observations = observations;
    }

    /**
     * The stores by name.
     *
     * @return the stores
     */
    public Map<String, StoreSettings> getStores() {
        return stores;
    }

    /**
     * Sets the stores.
     *
     * @param stores the stores by name
     */
    public void setStores(Map<String, StoreSettings> stores) {
        this.stores = stores;
    }

    /**
     * The CosId machine-id distributor's settings.
     *
     * @return the settings
     */
    public StoreMachine getStoreMachine() {
        return storeMachine;
    }

    /**
     * Sets the CosId machine-id distributor's settings.
     *
     * @param storeMachine the settings
     */
    public void setStoreMachine(StoreMachine storeMachine) {
        this.storeMachine = storeMachine;
    }

    /** One store: {@code cosid.stores.<name>}. */
    public static class StoreSettings {

        /** The backend: zookeeper or in-memory. */
        private @Nullable String type;

        /** The budget of each operation, retries included (default 3s). */
        private @Nullable Duration timeout;

        /**
         * The backend's options (docs/contract.md, "Configuration"); keys match ignoring case and
         * dashes, so environment variables work.
         */
        private Map<String, String> options = new LinkedHashMap<>();

        /** Creates empty settings; Spring binds them. */
        public StoreSettings() {}

        /**
         * The backend's type.
         *
         * @return the type, null when not configured
         */
        public @Nullable String getType() {
            return type;
        }

        /**
         * Sets the backend's type.
         *
         * @param type the type
         */
        public void setType(@Nullable String type) {
            this.type = type;
        }

        /**
         * The operation budget.
         *
         * @return the timeout, null for the default
         */
        public @Nullable Duration getTimeout() {
            return timeout;
        }

        /**
         * Sets the operation budget.
         *
         * @param timeout the timeout
         */
        public void setTimeout(@Nullable Duration timeout) {
            this.timeout = timeout;
        }

        /**
         * The backend's options.
         *
         * @return the options
         */
        public Map<String, String> getOptions() {
            return options;
        }

        /**
         * Sets the backend's options.
         *
         * @param options the options
         */
        public void setOptions(Map<String, String> options) {
            this.options = options;
        }
    }

    /**
     * {@code cosid.observations}: every store operation as a Micrometer {@code Observation} in the
     * application's {@code ObservationRegistry} (for tracing; {@code StoreObservations} in
     * cosid-store-micrometer). Off by default: with Micrometer's default handler each observation
     * also makes a timer, next to the meters the stores report anyway.
     */
    public static class Observations {

        /** Whether store operations are observed (default false). */
        private boolean enabled;

        /** Creates the defaults; Spring binds them. */
        public Observations() {}

        /**
         * Whether store operations are observed.
         *
         * @return true when they are
         */
        public boolean isEnabled() {
            return enabled;
        }

        /**
         * Sets whether store operations are observed.
         *
         * @param enabled true to observe them
         */
        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }
    }

    /** {@code cosid.store-machine}: CosId's {@code MachineIdDistributor} on the store. */
    public static class StoreMachine {

        /** The clock skew allowed between instances and the store (default 1s). */
        private Duration tolerance = Duration.ofSeconds(1);

        /** The lease ttl used when CosId asks for a machine id "forever" (default 10m). */
        private Duration foreverTtl = Duration.ofMinutes(10);

        /** Creates the defaults; Spring binds them. */
        public StoreMachine() {}

        /**
         * The clock skew tolerance.
         *
         * @return the tolerance
         */
        public Duration getTolerance() {
            return tolerance;
        }

        /**
         * Sets the clock skew tolerance.
         *
         * @param tolerance the tolerance
         */
        public void setTolerance(Duration tolerance) {
            this.tolerance = tolerance;
        }

        /**
         * The ttl for CosId's "forever".
         *
         * @return the ttl
         */
        public Duration getForeverTtl() {
            return foreverTtl;
        }

        /**
         * Sets the ttl for CosId's "forever".
         *
         * @param foreverTtl the ttl
         */
        public void setForeverTtl(Duration foreverTtl) {
            this.foreverTtl = foreverTtl;
        }
    }
}
