package io.cosid.store.spring;

import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.spring.CosIdStoreProperties.StoreSettings;
import java.util.Map;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.support.AutowireCandidateQualifier;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.EnvironmentAware;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotationMetadata;

/**
 * Registers one {@link Store} bean per entry of {@code cosid.stores}, named {@code
 * cosidStore.<name>} and qualified {@code <name>} ({@code @Qualifier("main") Store store}), opened
 * with what the {@link StoreConfigCustomizer} beans made of its configuration and closed with the
 * context. A store that uses the application's client (a ZooKeeper store's Curator client, a JDBC
 * store's data source) depends on that client's bean, so that it closes first.
 */
final class StoreBeansRegistrar
        implements ImportBeanDefinitionRegistrar, EnvironmentAware, BeanFactoryAware {

    /** The prefix of each store bean's name. */
    static final String BEAN_PREFIX = "cosidStore.";

    @SuppressWarnings("NullAway.Init") // set by Spring before registerBeanDefinitions
    private Environment environment;

    @SuppressWarnings("NullAway.Init") // set by Spring before registerBeanDefinitions
    private BeanFactory beanFactory;

    @Override
    public void setEnvironment(Environment environment) {
        this.environment = environment;
    }

    @Override
    public void setBeanFactory(BeanFactory beanFactory) {
        this.beanFactory = beanFactory;
    }

    @Override
    public void registerBeanDefinitions(
            AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
        for (Map.Entry<String, StoreSettings> e : configured(environment).entrySet()) {
            String beanName = BEAN_PREFIX + e.getKey();
            if (registry.containsBeanDefinition(beanName)) {
                continue; // the application defined it: @ConditionalOnMissingBean by name
            }
            StoreConfig config = StoreConfigs.of(e.getKey(), e.getValue());
            String client = ApplicationClients.beanFor(config, beanFactory);
            RootBeanDefinition bean =
                    new RootBeanDefinition(
                            Store.class, () -> StoreConfigs.open(config, client, beanFactory));
            bean.setDestroyMethodName("close");
            bean.addQualifier(new AutowireCandidateQualifier(Qualifier.class, e.getKey()));
            if (client != null) {
                bean.setDependsOn(client);
            }
            registry.registerBeanDefinition(beanName, bean);
        }
    }

    /** The stores under {@code cosid.stores}, in the order configured. */
    static Map<String, StoreSettings> configured(Environment environment) {
        return Binder.get(environment)
                .bind("cosid.stores", Bindable.mapOf(String.class, StoreSettings.class))
                .orElse(Map.of());
    }
}
