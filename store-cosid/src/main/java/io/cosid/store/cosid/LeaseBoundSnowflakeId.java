package io.cosid.store.cosid;

import java.util.concurrent.TimeUnit;
import me.ahoo.cosid.IdGenerator;
import me.ahoo.cosid.IdGeneratorDecorator;
import me.ahoo.cosid.machine.InstanceId;
import me.ahoo.cosid.snowflake.SnowflakeId;
import me.ahoo.cosid.stat.generator.IdGeneratorStat;

/**
 * A CosId {@link SnowflakeId} that hands out an ID only while the lease behind its machine id
 * covers it: the lease, from {@link StoreMachineIdDistributor}, is held (not lost to another holder
 * nor reverted), usable by this instance's monotonic clock (renewed within its ttl), and the ID's
 * timestamp lies in the lease's window {@code [floor, ceiling)}. Otherwise {@link #generate} throws
 * {@link MachineIdLeaseException} saying which, and the ID is not handed out. CosId's own
 * generators keep generating after their guarder logged a lost machine id; this one stops.
 *
 * <p>Every ID handed out is recorded against the lease, so that {@link
 * StoreMachineIdDistributor#revert} tells the store the highest timestamp used and the next
 * holder's window starts just above it.
 *
 * <p>Wrap the generator CosId builds for the machine id that {@link
 * StoreMachineIdDistributor#distribute distribute} returned, after {@link
 * StoreMachineIdDistributor#distribute distribute}: {@code new LeaseBoundSnowflakeId(new
 * MillisecondSnowflakeId(machineId), distributor, namespace, instanceId)}. The check costs no store
 * call: it reads the lease this process holds. Thread-safe when the wrapped generator is (CosId's
 * are).
 */
public final class LeaseBoundSnowflakeId implements SnowflakeId, IdGeneratorDecorator {

    private final SnowflakeId actual;
    private final StoreMachineIdDistributor distributor;
    private final String namespace;
    private final InstanceId instanceId;
    private final long unitMillis;
    private final long epoch;
    private final int timestampShift;
    private final int machineId;

    /**
     * The holding last seen; looked up again once it ended, in case a new distribute replaced it.
     */
    private volatile HeldMachineId holding;

    /**
     * Binds a generator whose timestamps are milliseconds ({@code MillisecondSnowflakeId} and its
     * decorators) to the lease of its machine id.
     *
     * @param actual the generator, built for the machine id that {@link
     *     StoreMachineIdDistributor#distribute distribute} returned
     * @param distributor the distributor that holds the machine id
     * @param namespace the namespace given to {@link StoreMachineIdDistributor#distribute
     *     distribute}
     * @param instanceId the instance given to {@link StoreMachineIdDistributor#distribute
     *     distribute}
     * @throws IllegalStateException if the distributor holds no machine id for the instance, or
     *     another one than the generator's
     * @throws IllegalArgumentException if an argument is null or the generator's layout is not 63
     *     bits or fewer
     */
    public LeaseBoundSnowflakeId(
            SnowflakeId actual,
            StoreMachineIdDistributor distributor,
            String namespace,
            InstanceId instanceId) {
        this(actual, distributor, namespace, instanceId, TimeUnit.MILLISECONDS);
    }

    /**
     * Binds a generator to the lease of its machine id.
     *
     * @param actual the generator, built for the machine id that {@link
     *     StoreMachineIdDistributor#distribute distribute} returned
     * @param distributor the distributor that holds the machine id
     * @param namespace the namespace given to {@link StoreMachineIdDistributor#distribute
     *     distribute}
     * @param instanceId the instance given to {@link StoreMachineIdDistributor#distribute
     *     distribute}
     * @param timestampUnit the unit of the generator's timestamps and epoch: {@code MILLISECONDS}
     *     ({@code MillisecondSnowflakeId}) or {@code SECONDS} ({@code SecondSnowflakeId}, whose ID
     *     of second {@code s} needs all of {@code [s, s + 1)} in the window)
     * @throws IllegalStateException if the distributor holds no machine id for the instance, or
     *     another one than the generator's
     * @throws IllegalArgumentException if an argument is null or breaks its rule
     */
    public LeaseBoundSnowflakeId(
            SnowflakeId actual,
            StoreMachineIdDistributor distributor,
            String namespace,
            InstanceId instanceId,
            TimeUnit timestampUnit) {
        this.actual = required(actual, "actual");
        this.distributor = required(distributor, "distributor");
        this.namespace = required(namespace, "namespace");
        this.instanceId = required(instanceId, "instanceId");
        if (timestampUnit != TimeUnit.MILLISECONDS && timestampUnit != TimeUnit.SECONDS) {
            throw new IllegalArgumentException(
                    "timestampUnit must be MILLISECONDS or SECONDS, was " + timestampUnit);
        }
        this.unitMillis = timestampUnit.toMillis(1);
        int bits = actual.getTimestampBit() + actual.getMachineBit() + actual.getSequenceBit();
        if (bits > TOTAL_BIT) {
            throw new IllegalArgumentException(
                    "the generator's layout has "
                            + bits
                            + " bits; a snowflake ID has at most "
                            + TOTAL_BIT);
        }
        this.epoch = actual.getEpoch();
        this.timestampShift = actual.getMachineBit() + actual.getSequenceBit();
        this.machineId = actual.getMachineId();
        HeldMachineId held = distributor.holding(namespace, instanceId);
        if (held == null || held.isEnded()) {
            throw new IllegalStateException(
                    "the distributor holds no machine id for instance "
                            + instanceId.getInstanceId()
                            + " in namespace '"
                            + namespace
                            + "'; call distribute first");
        }
        if (held.machineId() != machineId) {
            throw new IllegalStateException(
                    "the generator stamps machine id "
                            + machineId
                            + " but the distributor holds machine id "
                            + held.machineId()
                            + " for instance "
                            + instanceId.getInstanceId()
                            + " in namespace '"
                            + namespace
                            + "'");
        }
        this.holding = held;
    }

    private static <T> T required(T value, String name) {
        if (value == null) {
            throw new IllegalArgumentException(name + " must not be null");
        }
        return value;
    }

    /**
     * The wrapped generator's next ID, if the lease covers it.
     *
     * @return the ID
     * @throws MachineIdLeaseException if the lease does not cover the ID (lost, reverted, not
     *     renewed within its ttl, or the timestamp outside its window); the ID is not handed out
     */
    @Override
    public long generate() {
        HeldMachineId held = current();
        long id = actual.generate();
        long first = ((id >>> timestampShift) + epoch) * unitMillis;
        long last = first + unitMillis - 1;
        if (!held.mayStamp(machineId, first, last)) {
            throw new MachineIdLeaseException(held.refusal(machineId, first, last));
        }
        return id;
    }

    private HeldMachineId current() {
        HeldMachineId held = holding;
        if (held.isEnded()) {
            HeldMachineId newer = distributor.holding(namespace, instanceId);
            if (newer != null && newer != held) {
                holding = newer;
                return newer;
            }
        }
        return held;
    }

    @Override
    public IdGenerator getActual() {
        return actual;
    }

    @Override
    public IdGeneratorStat stat() {
        return IdGeneratorDecorator.super.stat();
    }

    @Override
    public long getEpoch() {
        return actual.getEpoch();
    }

    @Override
    public int getTimestampBit() {
        return actual.getTimestampBit();
    }

    @Override
    public int getMachineBit() {
        return actual.getMachineBit();
    }

    @Override
    public int getSequenceBit() {
        return actual.getSequenceBit();
    }

    @Override
    public boolean isSafeJavascript() {
        return actual.isSafeJavascript();
    }

    @Override
    public long getMaxTimestamp() {
        return actual.getMaxTimestamp();
    }

    @Override
    public int getMaxMachineId() {
        return actual.getMaxMachineId();
    }

    @Override
    public long getMaxSequence() {
        return actual.getMaxSequence();
    }

    @Override
    public long getLastTimestamp() {
        return actual.getLastTimestamp();
    }

    @Override
    public int getMachineId() {
        return machineId;
    }

    /**
     * The namespace and instance whose lease this generator is bound to, for messages and logs.
     *
     * @return {@code namespace/instanceId}
     */
    @Override
    public String toString() {
        return "LeaseBoundSnowflakeId[" + namespace + "/" + instanceId.getInstanceId() + "]";
    }
}
