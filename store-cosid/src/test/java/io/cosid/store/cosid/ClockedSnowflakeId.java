package io.cosid.store.cosid;

import java.time.InstantSource;
import me.ahoo.cosid.CosId;
import me.ahoo.cosid.snowflake.MillisecondSnowflakeId;

/**
 * CosId's own {@link MillisecondSnowflakeId}, reading a test's clock instead of the system's:
 * everything else (layout, sequence, clock-backwards check) is CosId's code.
 */
final class ClockedSnowflakeId extends MillisecondSnowflakeId {

    private final InstantSource clock;

    ClockedSnowflakeId(int machineBit, int machineId, InstantSource clock) {
        super(
                CosId.COSID_EPOCH,
                DEFAULT_TIMESTAMP_BIT,
                machineBit,
                63 - DEFAULT_TIMESTAMP_BIT - machineBit,
                machineId);
        this.clock = clock;
    }

    @Override
    protected long getCurrentTime() {
        return clock.millis();
    }

    /**
     * The timestamp (epoch milliseconds) of an ID with CosId's epoch and 41 timestamp bits, any
     * machine and sequence bits.
     */
    static long timestampOf(long id) {
        return (id >>> (63 - DEFAULT_TIMESTAMP_BIT)) + CosId.COSID_EPOCH;
    }
}
