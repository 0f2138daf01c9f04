package io.cosid.store.spring;

import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.Stores;
import io.cosid.store.spring.CosIdStoreProperties.StoreSettings;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.BeanFactory;

/** A store's configuration from its settings, and the store opened from it. */
final class StoreConfigs {

    private StoreConfigs() {}

    /**
     * The configuration of store {@code name}, checked as {@link StoreConfig} checks every
     * configuration (errors name the full key).
     */
    static StoreConfig of(String name, StoreSettings settings) {
        if (settings.getType() == null || settings.getType().isBlank()) {
            throw new IllegalArgumentException(
                    StoreConfig.PREFIX
                            + name
                            + ".type is missing: name the backend, e.g. zookeeper or in-memory");
        }
        return new StoreConfig(
                name, settings.getType().trim(), settings.getTimeout(), settings.getOptions());
    }

    /**
     * Opens the store: with the configuration every {@link StoreConfigCustomizer} bean made of
     * {@code config}, in order; on the application's client bean {@code client} (a Curator client,
     * or a data source for a JDBC store) when one is named, else by its type ({@link Stores#open}).
     */
    static Store open(StoreConfig config, @Nullable String client, BeanFactory beanFactory) {
        StoreConfig customized = config;
        for (StoreConfigCustomizer customizer :
                beanFactory.getBeanProvider(StoreConfigCustomizer.class).orderedStream().toList()) {
            customized = customizer.customize(customized);
            if (!customized.name().equals(config.name())) {
                throw new IllegalStateException(
                        customizer
                                + " renamed store '"
                                + config.name()
                                + "' to '"
                                + customized.name()
                                + "': a customizer may change anything but the name");
            }
        }
        if (client == null) {
            return Stores.open(customized);
        }
        return ApplicationClients.open(customized, client, beanFactory);
    }
}
