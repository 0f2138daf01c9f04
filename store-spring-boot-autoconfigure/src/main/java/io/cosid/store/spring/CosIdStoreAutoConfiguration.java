package io.cosid.store.spring;

import io.cosid.store.HeldLeases;
import io.cosid.store.RangeStore;
import io.cosid.store.SlotLeaseStore;
import io.cosid.store.Store;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Import;

/**
 * The stores (README, "Use with Spring Boot"): a {@link Store} bean per entry of {@code
 * cosid.stores}, named {@code cosidStore.<name>} and qualified {@code <name>}, each opened with the
 * configuration every {@link StoreConfigCustomizer} bean made of it; a ZooKeeper store whose
 * options name no client of its own uses the application's one {@code CuratorFramework} bean, and
 * closes before it; a JDBC store whose options name no {@code url} uses the application's one (or
 * primary) {@code DataSource} bean, on connections of its own, and closes before it. With exactly
 * one store, its {@link RangeStore} and {@link SlotLeaseStore} too. {@link HeldLeases}, attached to
 * every store, tracks the leases this process holds for health and metrics.
 *
 * <p>The other concerns have auto-configurations of their own: {@link
 * CosIdStoreCosIdAutoConfiguration}, {@link CosIdStoreMetricsAutoConfiguration}, {@link
 * CosIdStoreHealthAutoConfiguration} (and its Boot 4 twin), {@link
 * CosIdStoreObservationAutoConfiguration}. Every bean backs off when the application defines its
 * own.
 */
@AutoConfiguration(
        afterName = {
            "org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration",
            "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration"
        })
@EnableConfigurationProperties(CosIdStoreProperties.class)
@Import(StoreBeansRegistrar.class)
public class CosIdStoreAutoConfiguration {

    /** Created by Spring. */
    public CosIdStoreAutoConfiguration() {}

    @Bean
    @ConditionalOnMissingBean
    HeldLeases cosidStoreHeldLeases() {
        return new HeldLeases();
    }

    @Bean
    StoreConfigCustomizer cosidStoreHeldLeasesCustomizer(HeldLeases leases) {
        return StoreConfigCustomizer.observer(leases);
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
}
