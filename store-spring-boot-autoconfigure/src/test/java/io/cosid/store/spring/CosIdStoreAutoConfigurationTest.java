package io.cosid.store.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosid.store.RangeStore;
import io.cosid.store.SlotLeaseStore;
import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.StoreObserver;
import io.cosid.store.inmemory.InMemoryStores;
import io.cosid.store.micrometer.DefaultStoreObservationConvention;
import io.cosid.store.micrometer.StoreMetrics;
import io.cosid.store.micrometer.StoreObservationConvention;
import io.cosid.store.micrometer.StoreObservations;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import me.ahoo.cosid.machine.InstanceId;
import me.ahoo.cosid.machine.MachineIdDistributor;
import me.ahoo.cosid.segment.IdSegmentDistributorDefinition;
import me.ahoo.cosid.segment.IdSegmentDistributorFactory;
import me.ahoo.cosid.segment.SegmentChainId;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.BeanFactoryAnnotationUtils;
import org.springframework.boot.actuate.autoconfigure.health.HealthContributorAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.health.HealthEndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration;
import org.springframework.boot.actuate.health.CompositeHealthContributor;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthComponent;
import org.springframework.boot.actuate.health.HealthEndpoint;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The auto-configuration with in-memory stores: beans, properties, failures, CosId, meters. */
@DisplayName("cosid-store's Spring Boot auto-configuration")
class CosIdStoreAutoConfigurationTest {

    private final ApplicationContextRunner runner =
            new ApplicationContextRunner().withConfiguration(AutoConfigs.all());

    @Nested
    @DisplayName("stores from cosid.stores")
    class Stores {

        @Test
        @DisplayName("one store: its Store, RangeStore and SlotLeaseStore beans, working")
        void oneStore() {
            runner.withPropertyValues(
                            "cosid.stores.main.type=in-memory", "cosid.stores.main.timeout=2s")
                    .run(
                            context -> {
                                assertThat(context).hasNotFailed();
                                assertThat(context).hasSingleBean(Store.class);
                                assertThat(context).hasBean("cosidStore.main");
                                Store store = context.getBean(Store.class);
                                assertThat(store.name()).isEqualTo("main");
                                assertThat(store.type()).isEqualTo("in-memory");
                                assertThat(
                                                context.getBean(RangeStore.class)
                                                        .acquire("orders", 10)
                                                        .start())
                                        .isZero();
                                assertThat(context).hasSingleBean(SlotLeaseStore.class);
                            });
        }

        @Test
        @DisplayName("two stores: two Store beans told apart by @Qualifier(name); no shortcuts")
        void twoStores() {
            runner.withPropertyValues(
                            "cosid.stores.main.type=in-memory", "cosid.stores.audit.type=in-memory")
                    .run(
                            context -> {
                                assertThat(context).getBeans(Store.class).hasSize(2);
                                assertThat(context).doesNotHaveBean(RangeStore.class);
                                assertThat(context)
                                        .doesNotHaveBean(IdSegmentDistributorFactory.class);
                                Store audit =
                                        BeanFactoryAnnotationUtils.qualifiedBeanOfType(
                                                context.getBeanFactory(), Store.class, "audit");
                                assertThat(audit.name()).isEqualTo("audit");
                            });
        }

        @Test
        @DisplayName("no cosid.stores: no store beans, nothing fails")
        void none() {
            runner.run(
                    context -> {
                        assertThat(context).hasNotFailed();
                        assertThat(context).doesNotHaveBean(Store.class);
                    });
        }

        @Test
        @DisplayName("an unknown option fails startup, naming the full key and the known ones")
        void unknownOption() {
            runner.withPropertyValues(
                            "cosid.stores.main.type=in-memory",
                            "cosid.stores.main.options.colour=red")
                    .run(
                            context ->
                                    assertThat(context)
                                            .getFailure()
                                            .rootCause()
                                            .isInstanceOf(IllegalArgumentException.class)
                                            .hasMessageContaining(
                                                    "cosid.stores.main.options.colour")
                                            .hasMessageContaining("backend"));
        }

        @Test
        @DisplayName("a store without a type fails startup naming the key")
        void missingType() {
            runner.withPropertyValues("cosid.stores.main.timeout=2s")
                    .run(
                            context ->
                                    assertThat(context)
                                            .getFailure()
                                            .isInstanceOf(IllegalArgumentException.class)
                                            .hasMessageContaining(
                                                    "cosid.stores.main.type is missing"));
        }

        @Test
        @DisplayName("environment variables configure a store (their keys come lowercased)")
        void environmentVariables() {
            runner.withInitializer(
                            Environments.variables(
                                    Map.of(
                                            "COSID_STORES_MAIN_TYPE",
                                            "in-memory",
                                            "COSID_STORES_MAIN_OPTIONS_BACKEND",
                                            "from-env")))
                    .run(
                            context -> {
                                assertThat(context).hasNotFailed();
                                assertThat(context.getBean(Store.class).name()).isEqualTo("main");
                            });
        }

        @Test
        @DisplayName("an application's own Store bean of that name replaces the configured one")
        void ownStoreBean() {
            Store own = InMemoryStores.open();
            runner.withPropertyValues("cosid.stores.main.type=in-memory")
                    .withBean("cosidStore.main", Store.class, () -> own)
                    .run(context -> assertThat(context.getBean(Store.class)).isSameAs(own));
        }

        @Test
        @DisplayName(
                "stores report to the observers StoreConfigCustomizer beans attach, and are closed"
                        + " with the context")
        void observersAndClose() {
            List<String> heard = new ArrayList<>();
            StoreObserver observer =
                    new StoreObserver() {
                        @Override
                        public void opened(String store, String type) {
                            heard.add("opened " + store);
                        }

                        @Override
                        public void operation(OperationEvent event) {
                            heard.add(event.operation().tag() + " " + event.outcome().tag());
                        }

                        @Override
                        public void closed(String store, String type) {
                            heard.add("closed " + store);
                        }
                    };
            runner.withPropertyValues("cosid.stores.main.type=in-memory")
                    .withBean(
                            StoreConfigCustomizer.class,
                            () -> StoreConfigCustomizer.observer(observer))
                    .run(context -> context.getBean(RangeStore.class).acquire("orders", 10));
            assertThat(heard)
                    .containsExactly("opened main", "range.acquire success", "closed main");
        }

        @Test
        @DisplayName("a StoreObserver bean by itself is not attached: observers come by customizer")
        void observerBeansNotImplicit() {
            List<String> heard = new ArrayList<>();
            StoreObserver observer =
                    new StoreObserver() {
                        @Override
                        public void operation(OperationEvent event) {
                            heard.add(event.operation().tag());
                        }
                    };
            runner.withPropertyValues("cosid.stores.main.type=in-memory")
                    .withBean(StoreObserver.class, () -> observer)
                    .run(context -> context.getBean(RangeStore.class).acquire("orders", 10));
            assertThat(heard).isEmpty();
        }

        @Test
        @DisplayName("a customizer that renames a store fails startup, naming both names")
        void customizerMayNotRename() {
            runner.withPropertyValues("cosid.stores.main.type=in-memory")
                    .withBean(
                            StoreConfigCustomizer.class,
                            () ->
                                    config ->
                                            new StoreConfig(
                                                    "other",
                                                    config.type(),
                                                    config.timeout(),
                                                    config.options(),
                                                    config.observer()))
                    .run(
                            context ->
                                    assertThat(context)
                                            .getFailure()
                                            .rootCause()
                                            .hasMessageContaining(
                                                    "renamed store 'main' to 'other'"));
        }
    }

    @Test
    @DisplayName("the properties are described in generated metadata, for IDE completion")
    void metadata() throws Exception {
        try (InputStream in =
                getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            assertThat(in).isNotNull();
            String json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            assertThat(json)
                    .contains("\"name\": \"cosid.stores\"")
                    .contains("\"name\": \"cosid-store.machine.tolerance\"")
                    .contains("\"name\": \"cosid-store.observations.enabled\"")
                    .contains("Stores by name, each a Store bean");
            assertThat(json)
                    .as("CosId's starter owns the cosid prefix: nothing but cosid.stores under it")
                    .doesNotContainPattern("\"name\": \"cosid\\.(?!stores)");
            assertThat(json)
                    .as("descriptions as Spring Boot's guide asks: no leading 'The', no defaults")
                    .doesNotContain("\"description\": \"The ")
                    .doesNotContainPattern("\"description\": \"[^\"]*\\(default");
        }
    }

    @Nested
    @DisplayName("CosId")
    class CosId {

        @Test
        @DisplayName(
                "a real SegmentChainId and a machine id come from the IdSegmentDistributorFactory"
                        + " and MachineIdDistributor beans")
        void generators() {
            runner.withPropertyValues("cosid.stores.main.type=in-memory")
                    .run(
                            context -> {
                                IdSegmentDistributorFactory factory =
                                        context.getBean(IdSegmentDistributorFactory.class);
                                SegmentChainId ids =
                                        new SegmentChainId(
                                                factory.create(
                                                        new IdSegmentDistributorDefinition(
                                                                "app", "order", 0, 100)));
                                Set<Long> seen = new HashSet<>();
                                for (int i = 0; i < 1000; i++) {
                                    assertThat(seen.add(ids.generate())).isTrue();
                                }
                                assertThat(seen).contains(1L);

                                MachineIdDistributor machines =
                                        context.getBean(MachineIdDistributor.class);
                                int machineId =
                                        machines.distribute(
                                                        "app",
                                                        10,
                                                        InstanceId.of("host-1", 8080, false),
                                                        Duration.ofSeconds(30))
                                                .getMachineId();
                                assertThat(machineId).isBetween(0, 1023);
                                assertThat(
                                                context.getBean(SlotLeaseStore.class)
                                                        .inspect("app")
                                                        .slots())
                                        .isNotEmpty();
                            });
        }

        @Test
        @DisplayName("runs before CosId's own auto-configuration, so that CosId uses these beans")
        void orderedBeforeCosId() {
            assertThat(
                            CosIdStoreCosIdAutoConfiguration.class
                                    .getAnnotation(AutoConfiguration.class)
                                    .beforeName())
                    .contains(
                            "me.ahoo.cosid.spring.boot.starter.segment"
                                    + ".CosIdSegmentAutoConfiguration",
                            "me.ahoo.cosid.spring.boot.starter.machine"
                                    + ".CosIdMachineAutoConfiguration");
        }
    }

    @Nested
    @DisplayName("metrics and health")
    class MetricsAndHealth {

        @Test
        @DisplayName("StoreMetrics is bound to the application's registry and hears the stores")
        void meters() {
            runner.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class))
                    .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
                    .withPropertyValues("cosid.stores.main.type=in-memory")
                    .run(
                            context -> {
                                assertThat(context).hasSingleBean(StoreMetrics.class);
                                context.getBean(RangeStore.class).acquire("orders", 10);
                                MeterRegistry registry = context.getBean(MeterRegistry.class);
                                assertThat(
                                                registry.get(StoreMetrics.OPERATIONS)
                                                        .tags(
                                                                "store",
                                                                "main",
                                                                "operation",
                                                                "range.acquire")
                                                        .timer()
                                                        .count())
                                        .isEqualTo(1);
                                assertThat(
                                                registry.get(StoreMetrics.OPEN)
                                                        .tag("store", "main")
                                                        .gauge()
                                                        .value())
                                        .isEqualTo(1);
                            });
        }

        @Test
        @DisplayName("without a MeterRegistry bean, no StoreMetrics: the stores work unmetered")
        void noRegistryNoMeters() {
            runner.withPropertyValues("cosid.stores.main.type=in-memory")
                    .run(context -> backedOff(context, StoreMetrics.class));
        }

        @Test
        @DisplayName("health is one child per store, UP with its details while it answers")
        void healthUp() {
            runner.withPropertyValues("cosid.stores.main.type=in-memory")
                    .run(
                            context -> {
                                context.getBean(SlotLeaseStore.class)
                                        .define("app", 4, Duration.ZERO);
                                context.getBean(SlotLeaseStore.class)
                                        .acquire("app", "host-1", Duration.ofMinutes(1));
                                Health result = health(context, "main");
                                assertThat(result.getStatus()).isEqualTo(Status.UP);
                                assertThat(result.getDetails())
                                        .containsEntry("reachable", true)
                                        .containsEntry("leasesHeld", 1)
                                        .containsEntry("leasesOverdue", 0);
                            });
        }

        @Test
        @DisplayName("a store that no longer answers is DOWN; the other store stays UP")
        void healthPerStore() {
            runner.withPropertyValues(
                            "cosid.stores.main.type=in-memory", "cosid.stores.audit.type=in-memory")
                    .run(
                            context -> {
                                context.getBean("cosidStore.main", Store.class).close();
                                Health main = health(context, "main");
                                assertThat(main.getStatus()).isEqualTo(Status.DOWN);
                                assertThat(main.getDetails()).containsEntry("reachable", false);
                                assertThat(health(context, "audit").getStatus())
                                        .isEqualTo(Status.UP);
                            });
        }

        @Test
        @DisplayName("the health endpoint shows each store at cosidStore/<name>")
        void healthEndpointPath() {
            runner.withConfiguration(
                            AutoConfigurations.of(
                                    HealthContributorAutoConfiguration.class,
                                    HealthEndpointAutoConfiguration.class))
                    .withPropertyValues(
                            "cosid.stores.main.type=in-memory",
                            "management.endpoint.health.show-details=always")
                    .run(
                            context -> {
                                HealthComponent main =
                                        context.getBean(HealthEndpoint.class)
                                                .healthForPath("cosidStore", "main");
                                assertThat(main).isNotNull();
                                assertThat(main.getStatus()).isEqualTo(Status.UP);
                            });
        }

        @Test
        @DisplayName("management.health.cosid-store.enabled=false switches the health off")
        void healthSwitchedOff() {
            runner.withPropertyValues(
                            "cosid.stores.main.type=in-memory",
                            "management.health.cosid-store.enabled=false")
                    .run(
                            context ->
                                    assertThat(context)
                                            .doesNotHaveBean("cosidStoreHealthContributor"));
        }

        /** Store {@code name}'s health, as the composite contributor's child of that name. */
        private Health health(AssertableApplicationContext context, String name) {
            CompositeHealthContributor stores =
                    context.getBean(
                            "cosidStoreHealthContributor", CompositeHealthContributor.class);
            return ((HealthIndicator) stores.getContributor(name)).health();
        }
    }

    @Nested
    @DisplayName("observations (cosid-store.observations.enabled)")
    class Observations {

        @Test
        @DisplayName("on: every operation an observation in the application's registry")
        void on() {
            TestObservationRegistry registry = TestObservationRegistry.create();
            runner.withBean(ObservationRegistry.class, () -> registry)
                    .withPropertyValues(
                            "cosid.stores.main.type=in-memory",
                            "cosid-store.observations.enabled=true")
                    .run(
                            context -> {
                                context.getBean(RangeStore.class).acquire("orders", 10);
                                TestObservationRegistryAssert.assertThat(registry)
                                        .hasSingleObservationThat()
                                        .hasNameEqualTo(StoreObservations.NAME)
                                        .hasContextualNameEqualTo("range.acquire")
                                        .hasLowCardinalityKeyValue("store", "main")
                                        .hasLowCardinalityKeyValue("outcome", "success")
                                        .hasHighCardinalityKeyValue("subject", "orders");
                            });
        }

        @Test
        @DisplayName("off by default: a registry in the application observes nothing")
        void offByDefault() {
            TestObservationRegistry registry = TestObservationRegistry.create();
            runner.withBean(ObservationRegistry.class, () -> registry)
                    .withPropertyValues("cosid.stores.main.type=in-memory")
                    .run(
                            context -> {
                                context.getBean(RangeStore.class).acquire("orders", 10);
                                TestObservationRegistryAssert.assertThat(registry)
                                        .doesNotHaveAnyObservation();
                            });
        }

        @Test
        @DisplayName("a StoreObservationConvention bean replaces the default names")
        void convention() {
            TestObservationRegistry registry = TestObservationRegistry.create();
            StoreObservationConvention mine =
                    new DefaultStoreObservationConvention() {
                        @Override
                        public String getName() {
                            return "ids.store";
                        }
                    };
            runner.withBean(ObservationRegistry.class, () -> registry)
                    .withBean(StoreObservationConvention.class, () -> mine)
                    .withPropertyValues(
                            "cosid.stores.main.type=in-memory",
                            "cosid-store.observations.enabled=true")
                    .run(
                            context -> {
                                context.getBean(RangeStore.class).acquire("orders", 10);
                                TestObservationRegistryAssert.assertThat(registry)
                                        .hasSingleObservationThat()
                                        .hasNameEqualTo("ids.store");
                            });
        }

        @Test
        @DisplayName("on without an ObservationRegistry bean: backs off, the stores work")
        void withoutRegistry() {
            runner.withPropertyValues(
                            "cosid.stores.main.type=in-memory",
                            "cosid-store.observations.enabled=true")
                    .run(context -> backedOff(context, StoreObservations.class));
        }

        @Test
        @DisplayName("on without cosid-store-micrometer: backs off, the stores work")
        void withoutModule() {
            runner.withClassLoader(new FilteredClassLoader("io.cosid.store.micrometer"))
                    .withBean(ObservationRegistry.class, TestObservationRegistry::create)
                    .withPropertyValues(
                            "cosid.stores.main.type=in-memory",
                            "cosid-store.observations.enabled=true")
                    .run(
                            context -> {
                                assertThat(context).hasNotFailed();
                                assertThat(context.getBean(RangeStore.class).acquire("k", 1))
                                        .isNotNull();
                            });
        }
    }

    /** The context started without a {@code concern} bean, and its stores work. */
    private static void backedOff(AssertableApplicationContext context, Class<?> concern) {
        assertThat(context).hasNotFailed().doesNotHaveBean(concern);
        assertThat(context.getBean(RangeStore.class).acquire("k", 1)).isNotNull();
    }
}
