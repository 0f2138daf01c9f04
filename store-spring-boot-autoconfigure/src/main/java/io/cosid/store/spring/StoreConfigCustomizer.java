package io.cosid.store.spring;

import io.cosid.store.StoreConfig;
import io.cosid.store.StoreObserver;
import java.util.List;
import java.util.Objects;

/**
 * Changes a store's configuration before the store opens: every bean of this type is applied, in
 * {@code @Order}, to each store of {@code cosid.stores}. It is how observers (metrics, tracing, a
 * log of one's own) reach the stores: {@link #observer}.
 *
 * <pre>{@code
 * @Bean
 * StoreConfigCustomizer auditObserver() {
 *     return StoreConfigCustomizer.observer(new AuditObserver());
 * }
 * }</pre>
 */
@FunctionalInterface
public interface StoreConfigCustomizer {

    /**
     * The configuration to open the store with.
     *
     * @param config the store's configuration as far as it got ({@link StoreConfig#name()} says
     *     which store; a customizer may change anything but the name)
     * @return the configuration to open it with, or to hand to the next customizer
     */
    StoreConfig customize(StoreConfig config);

    /**
     * A customizer that attaches {@code observer} to every store, beside the observers attached
     * before it (which surround it: {@link StoreObserver#all}).
     *
     * @param observer the observer
     * @return the customizer
     */
    static StoreConfigCustomizer observer(StoreObserver observer) {
        Objects.requireNonNull(observer, "observer");
        return config ->
                config.withObserver(StoreObserver.all(List.of(config.observer(), observer)));
    }
}
