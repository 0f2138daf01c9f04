package com.example.boot4;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosid.store.RangeStore;
import io.cosid.store.SlotLeaseStore;
import io.cosid.store.Store;
import io.cosid.store.micrometer.StoreObservations;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import me.ahoo.cosid.machine.InstanceId;
import me.ahoo.cosid.machine.MachineIdDistributor;
import me.ahoo.cosid.segment.IdSegmentDistributorDefinition;
import me.ahoo.cosid.segment.IdSegmentDistributorFactory;
import me.ahoo.cosid.segment.SegmentChainId;
import me.ahoo.cosid.snowflake.MillisecondSnowflakeId;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/** The starter on Spring Boot 4: stores from properties and environment, failures, CosId. */
class BootFourTest {

    /** Spring Boot reads a property source of this name as environment variables. */
    private static final String ENVIRONMENT =
            "test-" + StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME;

    private final ApplicationContextRunner runner =
            new ApplicationContextRunner()
                    .withConfiguration(CosIdStoreAutoConfigurations.all());

    @Test
    void runsOnBootFour() {
        assertThat(SpringBootVersion.getVersion()).startsWith("4.0.");
    }

    @Test
    void oneStoreGivesItsBeans() {
        runner.withPropertyValues("cosid.stores.main.type=in-memory")
                .run(
                        context -> {
                            assertThat(context).hasSingleBean(Store.class);
                            assertThat(context).hasSingleBean(SlotLeaseStore.class);
                            assertThat(context.getBean(RangeStore.class).acquire("k", 10).start())
                                    .isZero();
                        });
    }

    @Test
    void unknownOptionFailsStartupNamingTheKey() {
        runner.withPropertyValues(
                        "cosid.stores.main.type=in-memory", "cosid.stores.main.options.colour=red")
                .run(
                        context ->
                                assertThat(context)
                                        .getFailure()
                                        .rootCause()
                                        .hasMessageContaining("cosid.stores.main.options.colour"));
    }

    @Test
    void environmentVariablesConfigureAStore() {
        runner.withInitializer(
                        context ->
                                context.getEnvironment()
                                        .getPropertySources()
                                        .addFirst(
                                                new SystemEnvironmentPropertySource(
                                                        ENVIRONMENT,
                                                        Map.of(
                                                                "COSID_STORES_MAIN_TYPE",
                                                                "in-memory",
                                                                "COSID_STORES_MAIN_OPTIONS_BACKEND",
                                                                "env"))))
                .run(context -> assertThat(context.getBean(Store.class).name()).isEqualTo("main"));
    }

    @Test
    void healthPerStoreOnBootFoursHealthTypes() {
        runner.withPropertyValues("cosid.stores.main.type=in-memory")
                .run(
                        context -> {
                            HealthIndicator health =
                                    (HealthIndicator)
                                            context.getBean(
                                                            "cosidStoreHealthContributor",
                                                            CompositeHealthContributor.class)
                                                    .getContributor("main");
                            assertThat(health.health().getStatus()).isEqualTo(Status.UP);
                            assertThat(health.health().getDetails())
                                    .containsEntry("reachable", true);
                            context.getBean(Store.class).close();
                            assertThat(health.health().getStatus()).isEqualTo(Status.DOWN);
                        });
    }

    @Test
    void healthSwitchedOffByManagementProperty() {
        runner.withPropertyValues(
                        "cosid.stores.main.type=in-memory",
                        "management.health.cosid-store.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean("cosidStoreHealthContributor"));
    }

    @Test
    void observationsWhenEnabled() {
        List<Observation.Context> stopped = new CopyOnWriteArrayList<>();
        ObservationRegistry registry = ObservationRegistry.create();
        registry.observationConfig()
                .observationHandler(
                        new ObservationHandler<>() {
                            @Override
                            public boolean supportsContext(Observation.Context context) {
                                return true;
                            }

                            @Override
                            public void onStop(Observation.Context context) {
                                stopped.add(context);
                            }
                        });
        runner.withBean(ObservationRegistry.class, () -> registry)
                .withPropertyValues(
                        "cosid.stores.main.type=in-memory", "cosid-store.observations.enabled=true")
                .run(
                        context -> {
                            context.getBean(RangeStore.class).acquire("k", 10);
                            assertThat(stopped).hasSize(1);
                            assertThat(stopped.get(0).getName())
                                    .isEqualTo(StoreObservations.NAME);
                            assertThat(stopped.get(0).getContextualName())
                                    .isEqualTo("range.acquire");
                        });
    }

    /** A whole application. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {}

    @Test
    void wholeApplicationWithCosIdGenerators() {
        try (ConfigurableApplicationContext context =
                new SpringApplicationBuilder(App.class)
                        .web(WebApplicationType.NONE)
                        .properties(
                                "cosid.stores.main.type=in-memory",
                                "cosid-store.machine.tolerance=0s")
                        .run()) {
            SegmentChainId ids =
                    new SegmentChainId(
                            context.getBean(IdSegmentDistributorFactory.class)
                                    .create(
                                            new IdSegmentDistributorDefinition(
                                                    "app", "order", 0, 100)));
            assertThat(ids.generate()).isEqualTo(1);
            int machineId =
                    context.getBean(MachineIdDistributor.class)
                            .distribute(
                                    "app",
                                    10,
                                    InstanceId.of("host-1", 8080, false),
                                    Duration.ofSeconds(30))
                            .getMachineId();
            assertThat(new MillisecondSnowflakeId(machineId).generate()).isPositive();
        }
    }
}
