package io.cosid.store.spring;

import io.cosid.store.Store;
import io.cosid.store.micrometer.StoreObservations;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.util.ClassUtils;

/**
 * {@code cosid.observations.enabled}: a store wrapped by {@link StoreObservations} in the
 * application's {@link ObservationRegistry}. Its own class, so that the starter loads Micrometer's
 * observation types only when asked to.
 */
final class StoreTracing {

    private static final String REGISTRY = "io.micrometer.observation.ObservationRegistry";
    private static final String OBSERVATIONS = "io.cosid.store.micrometer.StoreObservations";

    private StoreTracing() {}

    /**
     * Fails, naming what is missing, unless the class path has Micrometer's observation API and
     * cosid-store-micrometer, and the application an {@code ObservationRegistry} bean.
     */
    static void requireAvailable(BeanFactory beanFactory) {
        ClassLoader loader =
                beanFactory instanceof ConfigurableBeanFactory configurable
                                && configurable.getBeanClassLoader() != null
                        ? configurable.getBeanClassLoader()
                        : StoreTracing.class.getClassLoader();
        if (!ClassUtils.isPresent(REGISTRY, loader)
                || !ClassUtils.isPresent(OBSERVATIONS, loader)) {
            throw new IllegalStateException(
                    StoreBeansRegistrar.OBSERVATIONS
                            + " is true, but the class path lacks "
                            + (ClassUtils.isPresent(REGISTRY, loader)
                                    ? "io.cosid:cosid-store-micrometer"
                                    : "io.micrometer:micrometer-observation")
                            + ": add it, or set the property to false");
        }
        if (beanFactory.getBeanProvider(ObservationRegistry.class).getIfAvailable() == null) {
            throw new IllegalStateException(
                    StoreBeansRegistrar.OBSERVATIONS
                            + " is true, but the application has no single ObservationRegistry"
                            + " bean (Spring Boot's actuator defines one): add one, or set the"
                            + " property to false");
        }
    }

    /** {@code store} with every operation observed in the application's registry. */
    static Store observe(Store store, BeanFactory beanFactory) {
        return StoreObservations.observe(
                store, beanFactory.getBeanProvider(ObservationRegistry.class).getObject());
    }
}
