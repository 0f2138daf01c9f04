package io.cosid.store.zookeeper.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cosid.store.SlotLease;
import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.tck.HistoryChecker;
import io.cosid.store.tck.HistoryRecorder;
import io.cosid.store.zookeeper.ZooKeeperStores;
import io.cosid.store.zookeeper.harness.ForkedEnsemble;
import io.cosid.store.zookeeper.harness.ZooKeeperServers;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Scenario 4: the session of a client holding a lease is expired by the server (a second handle
 * with the same session id and password is opened and closed). A lease is not tied to a session:
 * its term is in the slot's data, so the next renew behaves exactly as the contract says, on the
 * new session Curator makes.
 */
@DisplayName("Fault 4: session expired server-side while holding a lease")
class SessionExpiryTest {

    private final ForkedEnsemble server = ForkedEnsemble.standalone(ZooKeeperServers.PRIMARY);

    @AfterEach
    void close() {
        server.close();
    }

    @Test
    @DisplayName("the next renew keeps the term (same fence) and acquires go on, on a new session")
    void sessionExpired() throws Exception {
        int rounds = Soak.scale(2, 50);
        HistoryRecorder recorder = new HistoryRecorder();
        try (CuratorFramework client =
                CuratorFrameworkFactory.newClient(
                        server.connectString(), 6000, 3000, new ExponentialBackoffRetry(100, 10))) {
            client.start();
            assertThat(client.blockUntilConnected(20, TimeUnit.SECONDS)).isTrue();
            Store store =
                    ZooKeeperStores.open(
                            StoreConfig.of("expiry", "zookeeper")
                                    .withTimeout(Duration.ofSeconds(5))
                                    .withOption("retry.maxRetries", "29"),
                            client);
            store.slots().define("ns", 4, Duration.ofMillis(100));
            SlotLease lease =
                    recorder.acquire(store.slots(), "ns", "holder", Duration.ofSeconds(30), 4);
            for (int r = 0; r < rounds; r++) {
                ZooKeeper zk = client.getZookeeperClient().getZooKeeper();
                long session = zk.getSessionId();
                try (ZooKeeper twin =
                        new ZooKeeper(
                                server.connectString(),
                                6000,
                                e -> {},
                                session,
                                zk.getSessionPasswd())) {
                    await("the twin handle to connect")
                            .atMost(Duration.ofSeconds(10))
                            .until(() -> twin.getState().isConnected());
                }
                SlotLease renewed =
                        await("renew on a new session")
                                .atMost(Duration.ofSeconds(30))
                                .ignoreExceptions()
                                .until(() -> recorder.renew(store.slots(), lease), l -> true);
                assertThat(renewed.fence()).isEqualTo(lease.fence());
                assertThat(client.getZookeeperClient().getZooKeeper().getSessionId())
                        .isNotEqualTo(session);
                assertThat(recorder.acquire(store.ranges(), "orders", 10)).isNotNull();
            }
            store.close();
        }
        HistoryChecker.Report report = HistoryChecker.check(recorder.events());
        FaultFigures.report("session-expiry", recorder.events().size(), rounds, 0, report);
        report.assertValid();
    }
}
