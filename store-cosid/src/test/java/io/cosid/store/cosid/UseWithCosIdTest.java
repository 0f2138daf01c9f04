package io.cosid.store.cosid;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.Stores;
import java.time.Duration;
import me.ahoo.cosid.machine.DefaultMachineIdGuarder;
import me.ahoo.cosid.machine.InstanceId;
import me.ahoo.cosid.machine.MachineState;
import me.ahoo.cosid.segment.IdSegmentDistributorDefinition;
import me.ahoo.cosid.segment.SegmentChainId;
import me.ahoo.cosid.snowflake.MillisecondSnowflakeId;
import me.ahoo.cosid.snowflake.SnowflakeId;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * README's "Use with CosId" snippet, line for line but for the store (in-memory here, ZooKeeper
 * there), so that the snippet compiles and does what it says.
 */
@DisplayName("README: Use with CosId")
class UseWithCosIdTest {

    @Test
    @DisplayName("the snippet runs: segment IDs from 1, a snowflake ID, revert releases the slot")
    void snippetRuns() {
        long orderId;
        long id;
        try (Store store = Stores.open(StoreConfig.of("main", "in-memory"))) {
            // Segment IDs: CosId's SegmentChainId, segments from the range key "shop.order"
            SegmentChainId orderIds =
                    new SegmentChainId(
                            new StoreIdSegmentDistributorFactory(store.ranges())
                                    .create(
                                            new IdSegmentDistributorDefinition(
                                                    "shop", "order", 0, 1000)));
            orderId = orderIds.generate(); // 1, 2, 3, ...

            // Snowflake IDs: a machine id held as a lease, renewed by CosId's own guarder
            StoreMachineIdDistributor machines =
                    new StoreMachineIdDistributor(store.slots(), Duration.ofSeconds(1));
            InstanceId instance = InstanceId.of("order-service-0", true);
            Duration ttl = Duration.ofMinutes(1);
            MachineState state = machines.distribute("orders", 10, instance, ttl);
            SnowflakeId snowflakeIds =
                    new LeaseBoundSnowflakeId(
                            new MillisecondSnowflakeId(state.getMachineId()),
                            machines,
                            "orders",
                            instance);
            DefaultMachineIdGuarder guarder =
                    new DefaultMachineIdGuarder(
                            machines,
                            DefaultMachineIdGuarder.executorService(),
                            ttl.dividedBy(3),
                            ttl.dividedBy(3),
                            ttl);
            guarder.register("orders", instance);
            guarder.start();
            id = snowflakeIds.generate();

            // At shutdown: release at the highest timestamp handed out
            guarder.stop();
            machines.revert("orders", instance);

            assertThat(store.slots().inspect("orders").held()).isEmpty();
            assertThat(state.getMachineId()).isZero();
            assertThat(store.slots().inspect("orders").namespace().limit()).isEqualTo(1024);
        }
        assertThat(orderId).isEqualTo(1);
        assertThat(id).isPositive();
    }
}
