package com.example.boot4;

import io.cosid.store.spring.CosIdStoreAutoConfiguration;
import io.cosid.store.spring.CosIdStoreBootFourHealthAutoConfiguration;
import io.cosid.store.spring.CosIdStoreCosIdAutoConfiguration;
import io.cosid.store.spring.CosIdStoreHealthAutoConfiguration;
import io.cosid.store.spring.CosIdStoreMetricsAutoConfiguration;
import io.cosid.store.spring.CosIdStoreObservationAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;

/** Every cosid-store auto-configuration, the Boot 3 health one included (it stays out here). */
final class CosIdStoreAutoConfigurations {

    private CosIdStoreAutoConfigurations() {}

    static AutoConfigurations all() {
        return AutoConfigurations.of(
                CosIdStoreAutoConfiguration.class,
                CosIdStoreCosIdAutoConfiguration.class,
                CosIdStoreMetricsAutoConfiguration.class,
                CosIdStoreHealthAutoConfiguration.class,
                CosIdStoreBootFourHealthAutoConfiguration.class,
                CosIdStoreObservationAutoConfiguration.class);
    }
}
