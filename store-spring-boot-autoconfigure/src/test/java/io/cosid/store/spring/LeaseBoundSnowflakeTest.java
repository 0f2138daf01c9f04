package io.cosid.store.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosid.store.NamespaceSnapshot;
import io.cosid.store.SlotView;
import io.cosid.store.Store;
import io.cosid.store.cosid.LeaseBoundSnowflakeId;
import io.cosid.store.cosid.StoreMachineIdDistributor;
import io.cosid.store.inmemory.InMemoryBackend;
import java.time.Duration;
import java.time.Instant;
import me.ahoo.cosid.CosId;
import me.ahoo.cosid.machine.ClockBackwardsSynchronizer;
import me.ahoo.cosid.machine.MachineIdDistributor;
import me.ahoo.cosid.machine.MachineStateStorage;
import me.ahoo.cosid.machine.ManualMachineIdDistributor;
import me.ahoo.cosid.snowflake.SnowflakeId;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

@DisplayName("The starter's lease-bound SnowflakeId (cosid-store.machine.snowflake)")
class LeaseBoundSnowflakeTest {

    /** A backend that outlives the contexts, so that a test can look at it after a shutdown. */
    private final InMemoryBackend backend = InMemoryBackend.create();

    private final Store store = backend.open();

    private final ApplicationContextRunner runner =
            new ApplicationContextRunner()
                    .withConfiguration(AutoConfigs.all())
                    .withPropertyValues("cosid.stores.main.type=in-memory");

    @AfterEach
    void close() {
        store.close();
    }

    private StoreMachineIdDistributor distributor() {
        return new StoreMachineIdDistributor(store.slots(), Duration.ofSeconds(1));
    }

    @Test
    @DisplayName("no namespace set: no SnowflakeId bean and no machine id taken")
    void offByDefault() {
        runner.run(
                context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context).doesNotHaveBean(SnowflakeId.class);
                    assertThat(context).doesNotHaveBean(LeaseBoundSnowflake.class);
                });
    }

    @Test
    @DisplayName(
            "with a namespace: a LeaseBoundSnowflakeId on the machine id, released at shutdown"
                    + " declaring its last timestamp")
    void boundAndReleasedAtShutdown() {
        long[] last = new long[1];
        runner.withBean(MachineIdDistributor.class, this::distributor)
                .withPropertyValues(
                        "cosid-store.machine.snowflake.namespace=orders",
                        "cosid-store.machine.snowflake.machine-bit=4",
                        "cosid-store.machine.snowflake.instance-id=host-7",
                        "cosid-store.machine.snowflake.ttl=30s")
                .run(
                        context -> {
                            assertThat(context).hasNotFailed();
                            SnowflakeId ids = context.getBean(SnowflakeId.class);
                            assertThat(ids).isInstanceOf(LeaseBoundSnowflakeId.class);
                            assertThat(ids.getMachineBit()).isEqualTo(4);
                            for (int i = 0; i < 1000; i++) {
                                last[0] = ids.generate();
                            }
                            NamespaceSnapshot held = store.slots().inspect("orders");
                            assertThat(held.held())
                                    .singleElement()
                                    .satisfies(s -> assertThat(s.ownerKey()).isEqualTo("host-7"));
                        });

        SlotView released = store.slots().inspect("orders").slots().get(0);
        assertThat(released.released()).isTrue();
        long stamped = (last[0] >>> (63 - 41)) + CosId.COSID_EPOCH;
        assertThat(released.nextFloor()).isEqualTo(Instant.ofEpochMilli(stamped + 1));
    }

    @Test
    @DisplayName("a restart of the same instance gets its machine id back without waiting")
    void restartGetsItBack() {
        ApplicationContextRunner instance =
                runner.withBean(MachineIdDistributor.class, this::distributor)
                        .withPropertyValues(
                                "cosid-store.machine.snowflake.namespace=orders",
                                "cosid-store.machine.snowflake.instance-id=host-7");
        long[] first = new long[1];
        instance.run(context -> first[0] = context.getBean(SnowflakeId.class).generate());
        instance.run(
                context -> {
                    long next = context.getBean(SnowflakeId.class).generate();
                    assertThat(next).isGreaterThan(first[0]);
                    assertThat(store.slots().inspect("orders").held())
                            .as("the same slot, held by this instance again, next term")
                            .singleElement()
                            .satisfies(
                                    v -> {
                                        assertThat(v.slot()).isZero();
                                        assertThat(v.ownerKey()).isEqualTo("host-7");
                                        assertThat(v.fence()).isEqualTo(2);
                                    });
                });
    }

    @Test
    @DisplayName("a MachineIdDistributor that is not cosid-store's fails startup naming both")
    void foreignDistributor() {
        runner.withBean(
                        MachineIdDistributor.class,
                        () ->
                                new ManualMachineIdDistributor(
                                        1,
                                        MachineStateStorage.IN_MEMORY,
                                        ClockBackwardsSynchronizer.DEFAULT))
                .withPropertyValues("cosid-store.machine.snowflake.namespace=orders")
                .run(
                        context ->
                                assertThat(context)
                                        .getFailure()
                                        .rootCause()
                                        .hasMessageContaining(
                                                "cosid-store.machine.snowflake.namespace builds a"
                                                        + " lease-bound SnowflakeId")
                                        .hasMessageContaining("ManualMachineIdDistributor"));
    }
}
