package io.cosid.store.spring;

import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.zookeeper.ZooKeeperStoreProvider;
import io.cosid.store.zookeeper.ZooKeeperStores;
import org.apache.curator.framework.CuratorFramework;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.util.ClassUtils;

/**
 * The application's {@link CuratorFramework} as a ZooKeeper store's client: used when the store's
 * configuration gives none of the options of a client of its own ({@code connectString}, {@code
 * sessionTimeout}, TLS, credentials, ...) and the application has exactly one such bean. Kept apart
 * so that nothing of ZooKeeper or Curator is loaded when they are not on the class path.
 */
final class ZooKeeperClients {

    private ZooKeeperClients() {}

    private static final boolean PRESENT =
            ClassUtils.isPresent(
                            "org.apache.curator.framework.CuratorFramework",
                            ZooKeeperClients.class.getClassLoader())
                    && ClassUtils.isPresent(
                            "io.cosid.store.zookeeper.ZooKeeperStores",
                            ZooKeeperClients.class.getClassLoader());

    /** The name of the client bean the store should use, or null: it builds its own. */
    static @Nullable String clientBeanFor(StoreConfig config, BeanFactory beanFactory) {
        if (!PRESENT
                || !config.type().equals("zookeeper")
                || !(beanFactory instanceof ListableBeanFactory listable)) {
            return null;
        }
        return Curator.clientBeanFor(config, listable);
    }

    /** Opens a ZooKeeper store on the client bean {@code client}. */
    static Store open(StoreConfig config, String client, BeanFactory beanFactory) {
        return Curator.open(config, client, beanFactory);
    }

    /** What touches Curator's and the backend's types, loaded only when they are present. */
    private static final class Curator {

        static @Nullable String clientBeanFor(StoreConfig config, ListableBeanFactory beans) {
            StoreConfig spelled =
                    config.withOptionKeysAs(new ZooKeeperStoreProvider().optionKeys());
            boolean ownClient =
                    spelled.options().keySet().stream()
                            .anyMatch(ZooKeeperStores.CLIENT_OPTION_KEYS::contains);
            if (ownClient) {
                return null;
            }
            String[] clients = beans.getBeanNamesForType(CuratorFramework.class, true, false);
            return clients.length == 1 ? clients[0] : null;
        }

        static Store open(StoreConfig config, String client, BeanFactory beanFactory) {
            return ZooKeeperStores.open(
                    config, beanFactory.getBean(client, CuratorFramework.class));
        }
    }
}
