package io.cosid.store.spring;

import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.StoreObserver;
import io.cosid.store.Stores;
import io.cosid.store.spring.CosIdStoreProperties.StoreSettings;
import java.util.List;
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
                name,
                settings.getType().trim(),
                settings.getTimeout() == null ? StoreConfig.DEFAULT_TIMEOUT : settings.getTimeout(),
                settings.getOptions());
    }

    /**
     * Opens the store: on the application's client bean {@code client} when one is named, else by
     * its type ({@link Stores#open}); reporting to every {@link StoreObserver} bean; with {@code
     * traced}, every operation an observation ({@link StoreTracing}).
     */
    static Store open(
            StoreConfig config, @Nullable String client, BeanFactory beanFactory, boolean traced) {
        if (traced) {
            StoreTracing.requireAvailable(beanFactory); // before the store opens: nothing to close
        }
        List<StoreObserver> observers =
                beanFactory.getBeanProvider(StoreObserver.class).orderedStream().toList();
        StoreConfig observed = config.withObserver(StoreObserver.all(observers));
        Store store =
                client == null
                        ? Stores.open(observed)
                        : ZooKeeperClients.open(observed, client, beanFactory);
        return traced ? StoreTracing.observe(store, beanFactory) : store;
    }
}
