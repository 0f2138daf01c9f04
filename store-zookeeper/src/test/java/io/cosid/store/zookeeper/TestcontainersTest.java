package io.cosid.store.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.zookeeper.harness.ZooKeeperServer;
import io.cosid.store.zookeeper.harness.ZooKeeperServers;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The container path of the harness: runs where a Docker engine exists, skips visibly where none
 * does.
 */
@DisplayName("ZooKeeper on Testcontainers")
class TestcontainersTest {

    @Test
    @DisplayName("a store works against a zookeeper:3.9 container")
    void containerServer() {
        assumeThat(ZooKeeperServers.dockerAvailable()).as("a Docker engine is reachable").isTrue();
        try (ZooKeeperServer server = ZooKeeperServers.container(ZooKeeperServers.PRIMARY);
                Store store =
                        ZooKeeperStores.open(
                                StoreConfig.of("tc", "zookeeper")
                                        .withOption("connectString", server.connectString()))) {
            assertThat(store.ranges().acquire("k", 5).end()).isEqualTo(5);
        }
    }
}
