package io.cosid.store.spring;

import io.cosid.store.Namespace;
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

        /**
         * Clock skew allowed between instances and the store; the same as the namespace's, which
         * never changes once defined.
         */
        private Duration tolerance = Namespace.DEFAULT_TOLERANCE;

        /** The lease ttl used when CosId asks for a machine id "forever" (default 10m). */
        private Duration foreverTtl = Duration.ofMinutes(10);

        /** A snowflake generator bound to its machine id's lease, built by the starter. */
        private Snowflake snowflake = new Snowflake();

        /** Creates the defaults; Spring binds them. */
        public StoreMachine() {}

        /**
         * The snowflake generator's settings.
         *
         * @return the settings
         */
        public Snowflake getSnowflake() {
            return snowflake;
        }

        /**
         * Sets the snowflake generator's settings.
         *
         * @param snowflake the settings
         */
        public void setSnowflake(Snowflake snowflake) {
            this.snowflake = snowflake;
        }

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

    /**
     * {@code cosid.store-machine.snowflake}: a CosId {@code SnowflakeId} bean whose every ID its
     * machine id's lease covers ({@code LeaseBoundSnowflakeId}); it takes the machine id at
     * start-up, renews it every third of the ttl, and releases it at shutdown declaring the last
     * timestamp it stamped, so a restart stamps right after it without waiting.
     */
    public static class Snowflake {

        /** Machine-id namespace; setting it creates the generator. */
        private @Nullable String namespace;

        /** Width of the machine id in bits, 1 to 16; the namespace gets 2^bits machine ids. */
        private int machineBit = 10;

        /** Stable instance id, the lease's owner key (default: the HOSTNAME or host name). */
        private @Nullable String instanceId;

        /** Lease ttl of the machine id; it is renewed every third of it. */
        private Duration ttl = Duration.ofMinutes(1);

        /** Creates the defaults; Spring binds them. */
        public Snowflake() {}

        /**
         * The namespace, or null when no generator is wanted.
         *
         * @return the namespace
         */
        public @Nullable String getNamespace() {
            return namespace;
        }

        /**
         * Sets the namespace.
         *
         * @param namespace the namespace
         */
        public void setNamespace(@Nullable String namespace) {
            this.namespace = namespace;
        }

        /**
         * The machine id's width.
         *
         * @return bits, 1 to 16
         */
        public int getMachineBit() {
            return machineBit;
        }

        /**
         * Sets the machine id's width.
         *
         * @param machineBit bits, 1 to 16
         */
        public void setMachineBit(int machineBit) {
            this.machineBit = machineBit;
        }

        /**
         * The instance id, or null for the host's name.
         *
         * @return the instance id
         */
        public @Nullable String getInstanceId() {
            return instanceId;
        }

        /**
         * Sets the instance id.
         *
         * @param instanceId the instance id
         */
        public void setInstanceId(@Nullable String instanceId) {
            this.instanceId = instanceId;
        }

        /**
         * The lease ttl.
         *
         * @return the ttl
         */
        public Duration getTtl() {
            return ttl;
        }

        /**
         * Sets the lease ttl.
         *
         * @param ttl the ttl
         */
        public void setTtl(Duration ttl) {
            this.ttl = ttl;
        }
    }
}
