package io.cosid.store.spring;

import io.cosid.store.Store;
import io.cosid.store.cosid.StoreIdSegmentDistributorFactory;
import io.cosid.store.cosid.StoreMachineIdDistributor;
import me.ahoo.cosid.machine.MachineIdDistributor;
import me.ahoo.cosid.segment.IdSegmentDistributorFactory;
import me.ahoo.cosid.snowflake.SnowflakeId;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;

/**
 * CosId on the one store (with exactly one under {@code cosid.stores}, and CosId and
 * cosid-store-cosid on the class path): CosId's {@link IdSegmentDistributorFactory} and {@link
 * MachineIdDistributor} on it, before CosId's own auto-configuration so that CosId uses them; with
 * {@code cosid-store.machine.snowflake.namespace}, a {@link SnowflakeId} bound to its machine id's
 * lease, released at shutdown declaring its last timestamp.
 */
@AutoConfiguration(
        after = CosIdStoreAutoConfiguration.class,
        beforeName = {
            "me.ahoo.cosid.spring.boot.starter.segment.CosIdSegmentAutoConfiguration",
            "me.ahoo.cosid.spring.boot.starter.machine.CosIdMachineAutoConfiguration"
        })
@ConditionalOnClass({IdSegmentDistributorFactory.class, StoreIdSegmentDistributorFactory.class})
@Conditional(SingleStoreCondition.class)
@EnableConfigurationProperties(StoreIntegrationProperties.class)
public class CosIdStoreCosIdAutoConfiguration {

    private static final String SNOWFLAKE =
            StoreIntegrationProperties.PREFIX + ".machine.snowflake";

    /** Created by Spring. */
    public CosIdStoreCosIdAutoConfiguration() {}

    @Bean
    @ConditionalOnMissingBean
    IdSegmentDistributorFactory cosidStoreSegmentDistributorFactory(Store store) {
        return new StoreIdSegmentDistributorFactory(store.ranges());
    }

    @Bean
    @ConditionalOnMissingBean
    MachineIdDistributor cosidStoreMachineIdDistributor(
            Store store, StoreIntegrationProperties properties) {
        return new StoreMachineIdDistributor(
                store.slots(),
                properties.getMachine().getTolerance(),
                properties.getMachine().getForeverTtl());
    }

    @Bean
    @ConditionalOnProperty(prefix = SNOWFLAKE, name = "namespace")
    LeaseBoundSnowflake cosidStoreLeaseBoundSnowflake(
            MachineIdDistributor distributor, StoreIntegrationProperties properties) {
        return LeaseBoundSnowflake.start(distributor, properties.getMachine().getSnowflake());
    }

    @Bean
    @ConditionalOnMissingBean(SnowflakeId.class)
    @ConditionalOnProperty(prefix = SNOWFLAKE, name = "namespace")
    SnowflakeId cosidStoreSnowflakeId(LeaseBoundSnowflake snowflake) {
        return snowflake.generator();
    }
}
