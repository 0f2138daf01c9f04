package io.cosid.store.spring;

import io.cosid.store.RangeStore;
import io.cosid.store.SlotLeaseStore;
import io.cosid.store.Store;
import io.cosid.store.cosid.StoreIdSegmentDistributorFactory;
import io.cosid.store.cosid.StoreMachineIdDistributor;
import io.cosid.store.micrometer.StoreMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import me.ahoo.cosid.machine.MachineIdDistributor;
import me.ahoo.cosid.segment.IdSegmentDistributorFactory;
import me.ahoo.cosid.snowflake.SnowflakeId;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * cosid-store in a Spring Boot application (README, "Use with Spring Boot"):
 *
 * <ul>
 *   <li>a {@link Store} bean per entry of {@code cosid.stores}, named {@code cosidStore.<name>} and
 *       qualified {@code <name>}; a ZooKeeper store whose options name no client of its own uses
 *       the application's one {@code CuratorFramework} bean, and closes before it;
 *   <li>with exactly one store: its {@link RangeStore} and {@link SlotLeaseStore}, and, when CosId
 *       is on the class path, CosId's {@link IdSegmentDistributorFactory} and {@link
 *       MachineIdDistributor} on them (before CosId's own auto-configuration, so that CosId uses
 *       them), and with {@code cosid.store-machine.snowflake.namespace} a {@link SnowflakeId} bound
 *       to its machine id's lease, released at shutdown declaring its last timestamp;
 *   <li>with Micrometer: {@link StoreMetrics}, which the stores report to;
 *   <li>with the actuator: a health indicator {@code cosidStore}.
 * </ul>
 *
 * Every bean backs off when the application defines its own.
 */
@AutoConfiguration(
        beforeName = {
            "me.ahoo.cosid.spring.boot.starter.segment.CosIdSegmentAutoConfiguration",
            "me.ahoo.cosid.spring.boot.starter.machine.CosIdMachineAutoConfiguration"
        })
@EnableConfigurationProperties(CosIdStoreProperties.class)
@Import({StoreBeansRegistrar.class, BootFourHealthConfiguration.class})
public class CosIdStoreAutoConfiguration {

    /** Created by Spring. */
    public CosIdStoreAutoConfiguration() {}

    @Bean
    @ConditionalOnMissingBean
    LeaseWatch cosidStoreLeaseWatch() {
        return new LeaseWatch();
    }

    @Bean
    @ConditionalOnMissingBean
    @Conditional(SingleStoreCondition.class)
    RangeStore cosidRangeStore(Store store) {
        return store.ranges();
    }

    @Bean
    @ConditionalOnMissingBean
    @Conditional(SingleStoreCondition.class)
    SlotLeaseStore cosidSlotLeaseStore(Store store) {
        return store.slots();
    }

    /** CosId's distributors on the one store. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass({IdSegmentDistributorFactory.class, StoreIdSegmentDistributorFactory.class})
    @Conditional(SingleStoreCondition.class)
    static class CosIdDistributors {

        @Bean
        @ConditionalOnMissingBean
        IdSegmentDistributorFactory cosidStoreSegmentDistributorFactory(Store store) {
            return new StoreIdSegmentDistributorFactory(store.ranges());
        }

        @Bean
        @ConditionalOnMissingBean
        MachineIdDistributor cosidStoreMachineIdDistributor(
                Store store, CosIdStoreProperties properties) {
            return new StoreMachineIdDistributor(
                    store.slots(),
                    properties.getStoreMachine().getTolerance(),
                    properties.getStoreMachine().getForeverTtl());
        }

        @Bean
        @ConditionalOnProperty(prefix = "cosid.store-machine.snowflake", name = "namespace")
        LeaseBoundSnowflake cosidStoreLeaseBoundSnowflake(
                MachineIdDistributor distributor, CosIdStoreProperties properties) {
            return LeaseBoundSnowflake.start(
                    distributor, properties.getStoreMachine().getSnowflake());
        }

        @Bean
        @ConditionalOnMissingBean(SnowflakeId.class)
        @ConditionalOnProperty(prefix = "cosid.store-machine.snowflake", name = "namespace")
        SnowflakeId cosidStoreSnowflakeId(LeaseBoundSnowflake snowflake) {
            return snowflake.generator();
        }
    }

    /** Meters of every store. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass({MeterRegistry.class, StoreMetrics.class})
    static class Metrics {

        @Bean
        @ConditionalOnMissingBean
        StoreMetrics cosidStoreMetrics() {
            return new StoreMetrics();
        }
    }

    /** Health of every store, on Spring Boot 3's actuator. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.actuate.health.HealthIndicator")
    static class Health {

        @Bean
        @ConditionalOnMissingBean(name = "cosidStoreHealthIndicator")
        HealthIndicator cosidStoreHealthIndicator(Map<String, Store> stores, LeaseWatch leases) {
            return new StoresHealthIndicator(new StoresHealth(stores, leases));
        }
    }
}
