package io.cosid.store.spring;

import io.cosid.store.Namespace;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * cosid-store's settings apart from the stores, under {@code cosid-store}: a namespace of its own,
 * since CosId's starter owns {@code cosid}.
 *
 * <pre>{@code
 * cosid-store:
 *   machine:
 *     snowflake:
 *       namespace: order-service
 *   observations:
 *     enabled: true
 * }</pre>
 */
@ConfigurationProperties(StoreIntegrationProperties.PREFIX)
public class StoreIntegrationProperties {

    /** The prefix of these settings. */
    public static final String PREFIX = "cosid-store";

    /** CosId machine-id distributor on the store's slot leases. */
    private Machine machine = new Machine();

    /** Micrometer observations (spans) around every store operation. */
    private Observations observations = new Observations();

    /** Creates the defaults; Spring binds them. */
    public StoreIntegrationProperties() {}

    /**
     * The CosId machine-id distributor's settings.
     *
     * @return the settings
     */
    public Machine getMachine() {
        return machine;
    }

    /**
     * Sets the CosId machine-id distributor's settings.
     *
     * @param machine the settings
     */
    public void setMachine(Machine machine) {
        this.machine = machine;
    }

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
     * {@code cosid-store.observations}: every store operation as a Micrometer {@code Observation}
     * in the application's {@code ObservationRegistry} (for tracing; {@code StoreObservations} in
     * cosid-store-micrometer). Off unless enabled: with Micrometer's default handler each
     * observation also makes a timer, next to the meters the stores report anyway.
     */
    public static class Observations {

        /** Whether to observe every store operation as a Micrometer Observation. */
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

    /** {@code cosid-store.machine}: CosId's {@code MachineIdDistributor} on the store. */
    public static class Machine {

        /**
         * Clock skew allowed between instances and the store; the same as the namespace's, which
         * never changes once defined.
         */
        private Duration tolerance = Namespace.DEFAULT_TOLERANCE;

        /** Lease ttl used when CosId asks for a machine id "forever". */
        private Duration foreverTtl = Duration.ofMinutes(10);

        /** Snowflake generator bound to its machine id's lease. */
        private Snowflake snowflake = new Snowflake();

        /** Creates the defaults; Spring binds them. */
        public Machine() {}

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
     * {@code cosid-store.machine.snowflake}: a CosId {@code SnowflakeId} bean whose every ID its
     * machine id's lease covers ({@code LeaseBoundSnowflakeId}); it takes the machine id at
     * start-up, renews it every third of the ttl, and releases it at shutdown declaring the last
     * timestamp it stamped, so a restart stamps right after it without waiting.
     */
    public static class Snowflake {

        /** Machine-id namespace; setting it creates the generator. */
        private @Nullable String namespace;

        /** Width of the machine id in bits, 1 to 16; the namespace gets 2^bits machine ids. */
        private int machineBit = 10;

        /**
         * Stable instance id, the lease's owner key; when unset, the HOSTNAME variable or the host
         * name.
         */
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
