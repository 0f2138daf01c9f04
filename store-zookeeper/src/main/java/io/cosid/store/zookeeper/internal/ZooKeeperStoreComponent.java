package io.cosid.store.zookeeper.internal;

import dagger.BindsInstance;
import dagger.Component;
import dagger.Module;
import dagger.Provides;
import io.cosid.store.StoreConfig;
import io.cosid.store.Ticker;
import io.cosid.store.spi.Settlements;
import io.cosid.store.zookeeper.internal.connect.ClientOwnership;
import io.cosid.store.zookeeper.internal.connect.ZooKeeperOptions;
import io.cosid.store.zookeeper.internal.wire.ConnectionReports;
import io.cosid.store.zookeeper.internal.wire.NodePaths;
import io.cosid.store.zookeeper.internal.wire.Observations;
import io.cosid.store.zookeeper.internal.wire.StoreLifecycle;
import jakarta.inject.Singleton;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.ZooDefs;

/**
 * The object graph of one ZooKeeper store. Package-private: built only by {@link
 * ZooKeeperStoreAssembly}.
 */
@Singleton
@Component(modules = ZooKeeperStoreComponent.PathsModule.class)
interface ZooKeeperStoreComponent {

    ZooKeeperStore store();

    OpenChecks openChecks();

    ConnectionReports connectionReports();

    Observations observations();

    ZooKeeperOptions options();

    StoreConfig config();

    @Component.Factory
    interface Factory {
        ZooKeeperStoreComponent create(
                @BindsInstance StoreConfig config,
                @BindsInstance ZooKeeperOptions options,
                @BindsInstance CuratorFramework client,
                @BindsInstance ClientOwnership ownership,
                @BindsInstance Ticker ticker);
    }

    /**
     * The node layout lives under the option {@code root}, inside the client's Curator namespace if
     * it has one; the store's settlements are spi's.
     */
    @Module
    final class PathsModule {

        private PathsModule() {}

        @Provides
        @Singleton
        static NodePaths paths(ZooKeeperOptions options, CuratorFramework client) {
            String namespace = client.getNamespace();
            return new NodePaths(
                    namespace == null || namespace.isEmpty()
                            ? options.root()
                            : "/" + namespace + options.root(),
                    options.creatorAcl()
                            ? ZooDefs.Ids.CREATOR_ALL_ACL
                            : ZooDefs.Ids.OPEN_ACL_UNSAFE);
        }

        /** The store's settlements: spi's one rule, on the store's budget, ticker and log. */
        @Provides
        @Singleton
        static Settlements settlements(StoreLifecycle lifecycle, Observations observations) {
            return new Settlements(
                    observations.store(),
                    lifecycle.timeout(),
                    lifecycle.ticker(),
                    observations.log());
        }
    }
}
