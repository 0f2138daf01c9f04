package io.cosid.store.zookeeper.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cosid.store.Range;
import io.cosid.store.RangeState;
import io.cosid.store.SlotLease;
import io.cosid.store.Store;
import io.cosid.store.tck.HistoryChecker;
import io.cosid.store.zookeeper.harness.ForkedEnsemble;
import io.cosid.store.zookeeper.harness.ZooKeeperServers;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Scenario 6: every member killed at once and started again from its data directory. */
@DisplayName("Fault 6: whole-ensemble restart from disk")
class EnsembleRestartTest {

    private final ForkedEnsemble ensemble = ForkedEnsemble.start(ZooKeeperServers.PRIMARY, 3, 200);

    @AfterEach
    void close() {
        ensemble.close();
    }

    @Test
    @DisplayName("state survives; next values and fences never go back")
    void restartFromDisk() {
        int restarts = Soak.scale(1, 10);
        try (Load load = new Load()) {
            Store store = load.open(ensemble.connectString(), Duration.ofSeconds(5));
            store.slots().define(Load.NAMESPACE, 4, Duration.ofMillis(100));
            for (int r = 0; r < restarts; r++) {
                Range last = null;
                for (int i = 0; i < 50; i++) {
                    last = load.recorder.acquire(store.ranges(), "orders", 10);
                }
                SlotLease lease =
                        load.recorder.acquire(
                                store.slots(), Load.NAMESPACE, "holder", Duration.ofSeconds(20), 4);
                load.recorder.release(store.slots(), lease);

                ensemble.killEverything();
                ensemble.restartEverything();

                RangeState after =
                        await("the ensemble to serve")
                                .atMost(Duration.ofSeconds(60))
                                .ignoreExceptions()
                                .until(
                                        () -> store.ranges().peek("orders").orElseThrow(),
                                        s -> true);
                assertThat(after.next()).isEqualTo(last.end());
                Range next =
                        await().atMost(Duration.ofSeconds(30))
                                .ignoreExceptions()
                                .until(
                                        () -> load.recorder.acquire(store.ranges(), "orders", 10),
                                        x -> true);
                assertThat(next.start()).isGreaterThanOrEqualTo(last.end());
                SlotLease again =
                        load.recorder.acquire(
                                store.slots(), Load.NAMESPACE, "holder", Duration.ofSeconds(20), 4);
                assertThat(again.fence()).isGreaterThan(lease.fence());
                assertThat(again.floor()).isAfterOrEqualTo(lease.floor());
                load.recorder.release(store.slots(), again);
            }
            load.close();
            HistoryChecker.Report report = HistoryChecker.check(load.recorder.events());
            FaultFigures.report(
                    "ensemble-restart", load.recorder.events().size(), restarts, 0, report);
            report.assertValid();
        }
    }
}
