package io.cosid.store.spring;

import io.cosid.store.HeldLeases;
import io.cosid.store.Store;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.actuate.health.CompositeHealthContributor;
import org.springframework.boot.actuate.health.HealthContributor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Health of the stores on Spring Boot 3's actuator: a composite contributor {@code cosidStore} with
 * one child per store, by its name ({@link StoreHealth}); off with {@code
 * management.health.cosid-store.enabled: false}. On Spring Boot 4, {@link
 * CosIdStoreBootFourHealthAutoConfiguration}.
 */
@AutoConfiguration(after = CosIdStoreAutoConfiguration.class)
@ConditionalOnClass(name = "org.springframework.boot.actuate.health.HealthContributor")
@ConditionalOnBean({Store.class, HeldLeases.class})
@ConditionalOnEnabledHealthIndicator(StoreHealth.NAME)
public class CosIdStoreHealthAutoConfiguration {

    /** Created by Spring. */
    public CosIdStoreHealthAutoConfiguration() {}

    @Bean
    @ConditionalOnMissingBean(name = "cosidStoreHealthContributor")
    HealthContributor cosidStoreHealthContributor(Map<String, Store> stores, HeldLeases leases) {
        Map<String, StoreHealthIndicator> children = new LinkedHashMap<>();
        stores.values()
                .forEach(
                        s ->
                                children.put(
                                        s.name(),
                                        new StoreHealthIndicator(new StoreHealth(s, leases))));
        return CompositeHealthContributor.fromMap(children);
    }
}
