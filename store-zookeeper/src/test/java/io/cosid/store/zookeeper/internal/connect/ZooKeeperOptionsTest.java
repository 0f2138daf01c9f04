package io.cosid.store.zookeeper.internal.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosid.store.StoreConfig;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("ZooKeeper options")
class ZooKeeperOptionsTest {

    @Test
    @DisplayName("the defaults are the contract's")
    void defaults() {
        ZooKeeperOptions o = ZooKeeperOptions.parse(StoreConfig.of("main", "zookeeper"), true);
        assertThat(o.connectString()).isEqualTo("localhost:2181");
        assertThat(o.sessionTimeout()).isEqualTo(Duration.ofSeconds(60));
        assertThat(o.connectionTimeout()).isEqualTo(Duration.ofSeconds(15));
        assertThat(o.blockUntilConnectedWait()).isEqualTo(Duration.ofSeconds(10));
        assertThat(o.retryBaseSleep()).isEqualTo(Duration.ofMillis(100));
        assertThat(o.retryMaxRetries()).isEqualTo(5);
        assertThat(o.retryMaxSleep()).isEqualTo(Duration.ofMillis(500));
        assertThat(o.root()).isEqualTo("/cosid");
    }

    @Test
    @DisplayName("connection retries back off exponentially up to retry.maxSleep")
    void backoff() {
        ZooKeeperOptions o = ZooKeeperOptions.parse(StoreConfig.of("main", "zookeeper"), true);
        assertThat(o.retrySleep(0)).isEqualTo(Duration.ofMillis(100));
        assertThat(o.retrySleep(1)).isEqualTo(Duration.ofMillis(200));
        assertThat(o.retrySleep(2)).isEqualTo(Duration.ofMillis(400));
        assertThat(o.retrySleep(9)).isEqualTo(Duration.ofMillis(500));
        assertThat(o.retrySleep(60)).isEqualTo(Duration.ofMillis(500));
    }
}
