package io.cosid.store.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosid.store.RangeStore;
import io.cosid.store.Store;
import io.cosid.store.micrometer.StoreMetrics;
import java.time.Duration;
import me.ahoo.cosid.machine.InstanceId;
import me.ahoo.cosid.machine.MachineIdDistributor;
import me.ahoo.cosid.segment.IdSegmentDistributorDefinition;
import me.ahoo.cosid.segment.IdSegmentDistributorFactory;
import me.ahoo.cosid.segment.SegmentChainId;
import me.ahoo.cosid.snowflake.MillisecondSnowflakeId;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/** A whole Spring Boot application started as users start theirs, the starter found on its own. */
@DisplayName("A Spring Boot application with the starter")
class SpringApplicationTest {

    /** The application: nothing but auto-configuration. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {}

    @Test
    @DisplayName(
            "gets its store, CosId's segment and snowflake generators on it, and the meters, from"
                    + " application properties alone")
    void wholeApplication() {
        try (ConfigurableApplicationContext context =
                new SpringApplicationBuilder(App.class)
                        .web(WebApplicationType.NONE)
                        .properties(
                                "cosid.stores.main.type=in-memory",
                                "cosid.stores.main.timeout=2s",
                                "cosid-store.machine.tolerance=0s")
                        .run()) {
            Store store = context.getBean(Store.class);
            assertThat(store.name()).isEqualTo("main");
            assertThat(context.getBean(RangeStore.class)).isSameAs(store.ranges());
            assertThat(context.getBeansOfType(StoreMetrics.class)).hasSize(1);

            SegmentChainId segments =
                    new SegmentChainId(
                            context.getBean(IdSegmentDistributorFactory.class)
                                    .create(
                                            new IdSegmentDistributorDefinition(
                                                    "app", "order", 0, 100)));
            assertThat(segments.generate()).isEqualTo(1);

            int machineId =
                    context.getBean(MachineIdDistributor.class)
                            .distribute(
                                    "app",
                                    10,
                                    InstanceId.of("host-1", 8080, false),
                                    Duration.ofSeconds(30))
                            .getMachineId();
            MillisecondSnowflakeId snowflake = new MillisecondSnowflakeId(machineId);
            assertThat(snowflake.generate()).isPositive();
            assertThat(snowflake.getMachineId()).isEqualTo(machineId);
        }
    }
}
