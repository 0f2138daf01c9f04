package io.cosid.store.spring;

import io.cosid.store.HeldLeases;
import io.cosid.store.micrometer.StoreMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Meters of every store ({@link StoreMetrics}) in the application's {@link MeterRegistry}, after
 * Spring Boot's meter registry auto-configuration (3 and 4) and only when there is such a bean; the
 * lease gauges read the {@link HeldLeases} the health check reads.
 */
@AutoConfiguration(
        after = CosIdStoreAutoConfiguration.class,
        afterName = {
            "org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration",
            "org.springframework.boot.actuate.autoconfigure.metrics"
                    + ".CompositeMeterRegistryAutoConfiguration",
            "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
            "org.springframework.boot.micrometer.metrics.autoconfigure"
                    + ".CompositeMeterRegistryAutoConfiguration"
        })
@ConditionalOnClass({MeterRegistry.class, StoreMetrics.class})
@ConditionalOnBean({MeterRegistry.class, HeldLeases.class})
public class CosIdStoreMetricsAutoConfiguration {

    /** Created by Spring. */
    public CosIdStoreMetricsAutoConfiguration() {}

    @Bean
    @ConditionalOnMissingBean
    StoreMetrics cosidStoreMetrics(MeterRegistry registry, HeldLeases leases) {
        return new StoreMetrics(registry, leases);
    }

    @Bean
    StoreConfigCustomizer cosidStoreMetricsCustomizer(StoreMetrics metrics) {
        return StoreConfigCustomizer.observer(metrics);
    }
}
