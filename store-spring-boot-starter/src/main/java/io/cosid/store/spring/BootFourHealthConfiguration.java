package io.cosid.store.spring;

import io.cosid.store.Store;
import java.util.Map;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The stores' health indicator on Spring Boot 4, whose health types moved to {@code
 * org.springframework.boot.health.contributor}; on Spring Boot 3 its condition keeps it out.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
class BootFourHealthConfiguration {

    @Bean
    @ConditionalOnMissingBean(name = "cosidStoreHealthIndicator")
    HealthIndicator cosidStoreHealthIndicator(Map<String, Store> stores, LeaseWatch leases) {
        return new BootFourStoresHealthIndicator(new StoresHealth(stores, leases));
    }
}
