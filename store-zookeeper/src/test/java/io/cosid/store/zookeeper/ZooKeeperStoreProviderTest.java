package io.cosid.store.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cosid.store.StoreConfig;
import io.cosid.store.StoreProvider;
import io.cosid.store.Stores;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** What the ZooKeeper provider tells an application container (the Spring Boot starter). */
@DisplayName("The ZooKeeper provider")
class ZooKeeperStoreProviderTest {

    private final StoreProvider provider =
            Stores.provider(ZooKeeperStoreProvider.TYPE).orElseThrow();

    @Test
    @DisplayName(
            "opens on the application's CuratorFramework unless its options give a client's own")
    void applicationClient() {
        assertThat(provider.applicationClientType()).contains(CuratorFramework.class);
        StoreConfig config = StoreConfig.of("main", ZooKeeperStoreProvider.TYPE);
        assertThat(provider.connectsByItself(config.withOption("root", "/ids"))).isFalse();
        assertThat(provider.connectsByItself(config.withOption("connectString", "zk-1:2181")))
                .isTrue();
        assertThat(provider.connectsByItself(config.withOption("sessionTimeout", "30s"))).isTrue();
    }

    @Test
    @DisplayName("refuses a client that is not a CuratorFramework, naming its class")
    void wrongClient() {
        assertThatThrownBy(
                        () ->
                                provider.open(
                                        StoreConfig.of("main", ZooKeeperStoreProvider.TYPE),
                                        Integer.valueOf(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "a ZooKeeper store opens on a CuratorFramework, not on java.lang.Integer");
    }
}
