package io.cosid.store.zookeeper;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cosid.store.StoreConfig;
import io.cosid.store.StoreException;
import io.cosid.store.zookeeper.harness.ForkedEnsemble;
import io.cosid.store.zookeeper.harness.ZooKeeperServers;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A server older than the store needs (3.5 has no read-only multi, which a slot acquire sends) is
 * refused at open, naming the server's version, rather than failing obscurely on the first acquire.
 */
@DisplayName("A ZooKeeper 3.5 server")
class TooOldServerTest {

    private static ForkedEnsemble server;

    @BeforeAll
    static void start() {
        server = ForkedEnsemble.standalone(ZooKeeperServers.TOO_OLD);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    @DisplayName("is refused at open with its version and the version needed")
    void refusedAtOpen() {
        assertThatThrownBy(
                        () ->
                                ZooKeeperStores.open(
                                        StoreConfig.of("old", "zookeeper")
                                                .withTimeout(Duration.ofSeconds(10))
                                                .withOption(
                                                        "connectString", server.connectString())))
                .isInstanceOf(StoreException.class)
                .hasMessageContaining(ZooKeeperServers.TOO_OLD)
                .hasMessageContaining("3.6 or newer");
    }
}
