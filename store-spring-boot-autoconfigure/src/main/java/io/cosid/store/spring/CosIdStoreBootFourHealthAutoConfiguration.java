package io.cosid.store.spring;

import io.cosid.store.HeldLeases;
import io.cosid.store.Store;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.context.annotation.Bean;

/**
 * Health of the stores on Spring Boot 4, whose health types moved to {@code
 * org.springframework.boot.health}: as {@link CosIdStoreHealthAutoConfiguration} does on Spring
 * Boot 3, whose condition keeps it out here (and this one's out there).
 */
@AutoConfiguration(after = CosIdStoreAutoConfiguration.class)
@ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthContributor")
@ConditionalOnBean({Store.class, HeldLeases.class})
@ConditionalOnEnabledHealthIndicator(StoreHealth.NAME)
public class CosIdStoreBootFourHealthAutoConfiguration {

    /** Created by Spring. */
    public CosIdStoreBootFourHealthAutoConfiguration() {}

    @Bean
    @ConditionalOnMissingBean(name = "cosidStoreHealthContributor")
    HealthContributor cosidStoreHealthContributor(Map<String, Store> stores, HeldLeases leases) {
        Map<String, BootFourStoreHealthIndicator> children = new LinkedHashMap<>();
        stores.values()
                .forEach(
                        s ->
                                children.put(
                                        s.name(),
                                        new BootFourStoreHealthIndicator(
                                                new StoreHealth(s, leases))));
        return CompositeHealthContributor.fromMap(children);
    }
}
