package io.cosid.store.spring;

import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.StoreProvider;
import io.cosid.store.Stores;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;

/**
 * The application's own client as a store's, for every backend alike: a backend says which type of
 * client it can open on ({@link StoreProvider#applicationClientType()}: a ZooKeeper store on the
 * application's {@code CuratorFramework}, a JDBC store on its {@code DataSource}) and when a
 * configuration asks it to connect by itself ({@link StoreProvider#connectsByItself}); the
 * application's one bean of that type (or its one primary bean among several) is then handed over.
 * No backend is named here, so a new backend needs nothing in this module.
 */
final class ApplicationClients {

    private static final Log LOG = LogFactory.getLog(ApplicationClients.class);

    private ApplicationClients() {}

    /**
     * The name of the application's client bean the store should open on, or null: it connects by
     * itself (its configuration says so, its backend takes no client, or the application has none,
     * or several without one primary: then said once, since it is easy to mean otherwise).
     */
    static @Nullable String beanFor(StoreConfig config, BeanFactory beanFactory) {
        Optional<StoreProvider> provider = Stores.provider(config.type());
        Optional<Class<?>> type = provider.flatMap(StoreProvider::applicationClientType);
        if (provider.isEmpty()
                || type.isEmpty()
                || !(beanFactory instanceof ConfigurableListableBeanFactory beans)) {
            return null;
        }
        StoreConfig spelled = config.withOptionKeysAs(provider.get().optionKeys());
        if (provider.get().connectsByItself(spelled)) {
            return null;
        }
        String[] names = beans.getBeanNamesForType(type.get(), true, false);
        List<String> chosen =
                names.length == 1
                        ? List.of(names)
                        : Arrays.stream(names)
                                .filter(
                                        n ->
                                                beans.containsBeanDefinition(n)
                                                        && beans.getBeanDefinition(n).isPrimary())
                                .toList();
        if (chosen.size() == 1) {
            return chosen.get(0);
        }
        LOG.warn(
                "cosid.stores."
                        + config.name()
                        + " names no client options of its own and the application has "
                        + (names.length == 0
                                ? "no " + type.get().getSimpleName() + " bean"
                                : names.length
                                        + " "
                                        + type.get().getSimpleName()
                                        + " beans and none primary")
                        + ": the store connects by itself, from its options and their defaults");
        return null;
    }

    /** Opens the store on the application's client bean {@code client}. */
    static Store open(StoreConfig config, String client, BeanFactory beanFactory) {
        StoreProvider provider =
                Stores.provider(config.type())
                        .orElseThrow(
                                () ->
                                        new IllegalStateException(
                                                "no backend of type '" + config.type() + "'"));
        return provider.open(config, beanFactory.getBean(client));
    }
}
