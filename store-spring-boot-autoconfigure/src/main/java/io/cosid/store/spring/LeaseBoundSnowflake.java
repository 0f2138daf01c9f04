package io.cosid.store.spring;

import io.cosid.store.cosid.LeaseBoundSnowflakeId;
import io.cosid.store.cosid.StoreMachineIdDistributor;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import me.ahoo.cosid.CosId;
import me.ahoo.cosid.machine.DefaultMachineIdGuarder;
import me.ahoo.cosid.machine.InstanceId;
import me.ahoo.cosid.machine.MachineIdDistributor;
import me.ahoo.cosid.machine.MachineState;
import me.ahoo.cosid.snowflake.MillisecondSnowflakeId;
import org.jspecify.annotations.Nullable;
import org.springframework.context.SmartLifecycle;

/**
 * The starter's snowflake generator ({@code cosid-store.machine.snowflake}): a machine id taken
 * when the bean is created, a CosId {@link MillisecondSnowflakeId} on it wrapped in {@link
 * LeaseBoundSnowflakeId}, CosId's own guarder renewing the lease every third of its ttl while the
 * application runs, and a revert at shutdown that declares the last timestamp the generator
 * stamped, so that a restart stamps right after it instead of waiting for the lease's ceiling.
 */
final class LeaseBoundSnowflake implements SmartLifecycle {

    private final StoreMachineIdDistributor distributor;
    private final String namespace;
    private final InstanceId instance;
    private final Duration ttl;
    private final LeaseBoundSnowflakeId generator;
    private @Nullable ScheduledExecutorService guarding;
    private @Nullable DefaultMachineIdGuarder guarder;
    private volatile boolean running;

    private LeaseBoundSnowflake(
            StoreMachineIdDistributor distributor,
            String namespace,
            InstanceId instance,
            Duration ttl,
            LeaseBoundSnowflakeId generator) {
        this.distributor = distributor;
        this.namespace = namespace;
        this.instance = instance;
        this.ttl = ttl;
        this.generator = generator;
    }

    /**
     * Takes the machine id and builds the generator.
     *
     * @throws IllegalStateException if the application's distributor is not cosid-store's
     */
    static LeaseBoundSnowflake start(
            MachineIdDistributor distributor, StoreIntegrationProperties.Snowflake settings) {
        if (!(distributor instanceof StoreMachineIdDistributor store)) {
            throw new IllegalStateException(
                    "cosid-store.machine.snowflake.namespace builds a lease-bound SnowflakeId on"
                            + " cosid-store's StoreMachineIdDistributor, but the application's"
                            + " MachineIdDistributor bean is a "
                            + distributor.getClass().getName()
                            + "; remove that bean or build the generator yourself");
        }
        String namespace = settings.getNamespace();
        if (namespace == null) {
            throw new IllegalStateException("cosid-store.machine.snowflake.namespace is not set");
        }
        String instanceId =
                settings.getInstanceId() != null ? settings.getInstanceId() : hostName();
        InstanceId instance = InstanceId.of(instanceId, true);
        int bits = settings.getMachineBit();
        MachineState state = store.distribute(namespace, bits, instance, settings.getTtl());
        MillisecondSnowflakeId plain =
                new MillisecondSnowflakeId(
                        CosId.COSID_EPOCH,
                        MillisecondSnowflakeId.DEFAULT_TIMESTAMP_BIT,
                        bits,
                        63 - MillisecondSnowflakeId.DEFAULT_TIMESTAMP_BIT - bits,
                        state.getMachineId());
        return new LeaseBoundSnowflake(
                store,
                namespace,
                instance,
                settings.getTtl(),
                new LeaseBoundSnowflakeId(plain, store, namespace, instance));
    }

    /** The generator: every ID it hands out, its machine id's lease covers. */
    LeaseBoundSnowflakeId generator() {
        return generator;
    }

    @Override
    public synchronized void start() {
        if (running) {
            return;
        }
        Duration every = ttl.dividedBy(3);
        guarding =
                Executors.newSingleThreadScheduledExecutor(
                        r -> {
                            Thread t = new Thread(r, "cosid-store-machine-guard");
                            t.setDaemon(true);
                            return t;
                        });
        guarder = new DefaultMachineIdGuarder(distributor, guarding, every, every, ttl);
        guarder.register(namespace, instance);
        guarder.start();
        running = true;
    }

    /**
     * Stops renewing and releases the machine id, declaring the last timestamp stamped; from then
     * on the generator hands out no ID.
     */
    @Override
    public synchronized void stop() {
        if (!running) {
            return;
        }
        running = false;
        if (guarder != null) {
            guarder.stop();
        }
        if (guarding != null) {
            guarding.shutdownNow();
        }
        distributor.revert(namespace, instance);
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /**
     * Stops after the web server (Boot's lifecycles of phases {@code DEFAULT_PHASE - 1024} and
     * {@code - 2048}), so that no request generates after the release; the store closes later, when
     * its bean is destroyed.
     */
    @Override
    public int getPhase() {
        return SmartLifecycle.DEFAULT_PHASE - 4096;
    }

    private static String hostName() {
        String env = System.getenv("HOSTNAME");
        if (env != null && !env.isBlank()) {
            return env;
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException unknown) {
            throw new IllegalStateException(
                    "cannot name this host for the machine id's owner key; set"
                            + " cosid-store.machine.snowflake.instance-id",
                    unknown);
        }
    }
}
