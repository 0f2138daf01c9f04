package io.cosid.store.spring;

import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.zookeeper.ZooKeeperStoreProvider;
import io.cosid.store.zookeeper.ZooKeeperStores;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
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

        private static final Log LOG = LogFactory.getLog(ZooKeeperClients.class);

        static @Nullable String clientBeanFor(StoreConfig config, ListableBeanFactory beans) {
            StoreConfig spelled =
                    config.withOptionKeysAs(new ZooKeeperStoreProvider().optionKeys());
            boolean ownClient =
                    spelled.options().keySet().stream()
                            .anyMatch(ZooKeeperStores.CLIENT_OPTION_KEYS::contains);
            String[] clients = beans.getBeanNamesForType(CuratorFramework.class, true, false);
            if (!ownClient && clients.length == 1) {
                return clients[0];
            }
            if (!spelled.options().containsKey("connectString")) {
                // the backend's default then: say so once, since it is easy to mean otherwise
                LOG.warn(
                        "cosid.stores."
                                + config.name()
                                + (ownClient
                                        ? " gives client options but no connectString"
                                        : " names no connectString and the application has "
                                                + (clients.length == 0
                                                        ? "no CuratorFramework bean"
                                                        : clients.length
                                                                + " CuratorFramework beans"))
                                + ": the store connects to localhost:2181, the default; set"
                                + " cosid.stores."
                                + config.name()
                                + ".options.connectString");
            }
            return null;
        }

        static Store open(StoreConfig config, String client, BeanFactory beanFactory) {
            return ZooKeeperStores.open(
                    config, beanFactory.getBean(client, CuratorFramework.class));
        }
    }
}
