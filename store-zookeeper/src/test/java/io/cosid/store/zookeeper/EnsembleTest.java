package io.cosid.store.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cosid.store.Range;
import io.cosid.store.SlotLease;
import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.StoreException;
import io.cosid.store.tck.HistoryChecker;
import io.cosid.store.tck.HistoryRecorder;
import io.cosid.store.zookeeper.harness.ForkedEnsemble;
import io.cosid.store.zookeeper.harness.ZooKeeperServers;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A real 3-node ensemble: the harness forms it, and the stores keep their promises across a leader
 * kill.
 */
@DisplayName("A 3-node ZooKeeper ensemble")
class EnsembleTest {

    private final ForkedEnsemble ensemble = ForkedEnsemble.start(ZooKeeperServers.PRIMARY, 3, 200);
    private final Store store =
            ZooKeeperStores.open(
                    StoreConfig.of("ensemble", "zookeeper")
                            .withTimeout(Duration.ofSeconds(5))
                            .withOption("connectString", ensemble.connectString())
                            .withOption("sessionTimeout", "4s")
                            .withOption("retry.maxRetries", "29"));

    @AfterEach
    void close() {
        store.close();
        ensemble.close();
    }

    @Test
    @DisplayName(
            "survives a SIGKILLed leader: a new one is elected, and ranges and leases stay"
                    + " disjoint")
    void leaderKilled() {
        HistoryRecorder recorder = new HistoryRecorder();
        store.slots().define("workers", 8, Duration.ofMillis(500));
        for (int i = 0; i < 20; i++) {
            recorder.acquire(store.ranges(), "orders", 10);
        }
        SlotLease lease =
                recorder.acquire(store.slots(), "workers", "host-1", Duration.ofSeconds(20), 8);

        int leader = ensemble.leader();
        ensemble.kill(leader);
        await("a new leader")
                .atMost(Duration.ofSeconds(30))
                .until(
                        () -> {
                            try {
                                return ensemble.leader() != leader;
                            } catch (IllegalStateException e) {
                                return false;
                            }
                        });

        Range after =
                await("writes to resume")
                        .atMost(Duration.ofSeconds(30))
                        .ignoreExceptionsInstanceOf(StoreException.class)
                        .until(() -> recorder.acquire(store.ranges(), "orders", 10), r -> true);
        assertThat(after.start()).isGreaterThanOrEqualTo(200);
        SlotLease renewed =
                await("renew to resume")
                        .atMost(Duration.ofSeconds(30))
                        .ignoreExceptionsInstanceOf(StoreException.class)
                        .until(() -> recorder.renew(store.slots(), lease), r -> true);
        assertThat(renewed.fence()).isEqualTo(lease.fence());
        for (int i = 0; i < 20; i++) {
            recorder.acquire(store.ranges(), "orders", 10);
        }
        HistoryChecker.Report report = HistoryChecker.check(recorder.events()).assertValid();
        assertThat(report.duplicates()).isZero();
        assertThat(report.overlaps()).isZero();
    }
}
