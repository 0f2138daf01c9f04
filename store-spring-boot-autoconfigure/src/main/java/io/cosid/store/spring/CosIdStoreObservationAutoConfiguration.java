package io.cosid.store.spring;

import io.cosid.store.micrometer.StoreObservationConvention;
import io.cosid.store.micrometer.StoreObservations;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * Every store operation a Micrometer {@code Observation} ({@link StoreObservations}) in the
 * application's {@link ObservationRegistry}, with {@code cosid-store.observations.enabled: true},
 * after Spring Boot's observation auto-configuration (3 and 4) and only when there is such a bean.
 * A {@link StoreObservationConvention} bean replaces the default names and key values.
 */
@AutoConfiguration(
        after = CosIdStoreAutoConfiguration.class,
        afterName = {
            "org.springframework.boot.actuate.autoconfigure.observation"
                    + ".ObservationAutoConfiguration",
            "org.springframework.boot.micrometer.observation.autoconfigure"
                    + ".ObservationAutoConfiguration"
        })
@ConditionalOnClass({ObservationRegistry.class, StoreObservations.class})
@ConditionalOnBean(ObservationRegistry.class)
@ConditionalOnProperty(
        prefix = StoreIntegrationProperties.PREFIX + ".observations",
        name = "enabled",
        havingValue = "true")
@EnableConfigurationProperties(StoreIntegrationProperties.class)
public class CosIdStoreObservationAutoConfiguration {

    /** Created by Spring. */
    public CosIdStoreObservationAutoConfiguration() {}

    @Bean
    @ConditionalOnMissingBean
    StoreObservations cosidStoreObservations(
            ObservationRegistry registry, ObjectProvider<StoreObservationConvention> convention) {
        return new StoreObservations(registry, convention.getIfUnique());
    }

    @Bean
    StoreConfigCustomizer cosidStoreObservationsCustomizer(StoreObservations observations) {
        return StoreConfigCustomizer.observer(observations);
    }
}
