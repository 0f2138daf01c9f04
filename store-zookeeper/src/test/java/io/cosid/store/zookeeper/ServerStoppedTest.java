package io.cosid.store.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.cosid.store.Range;
import io.cosid.store.SlotLease;
import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.StoreException;
import io.cosid.store.StoreTimeoutException;
import io.cosid.store.tck.HistoryChecker;
import io.cosid.store.tck.HistoryRecorder;
import io.cosid.store.zookeeper.harness.ForkedEnsemble;
import io.cosid.store.zookeeper.harness.ZooKeeperServers;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A server that stops mid-run: operations end within the budget, and nothing is handed out twice
 * after.
 */
@DisplayName("A ZooKeeper server stopped mid-run")
class ServerStoppedTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(1);
    private final ForkedEnsemble server = ForkedEnsemble.standalone(ZooKeeperServers.PRIMARY);
    private final Store store =
            ZooKeeperStores.open(
                    StoreConfig.of("stopped", "zookeeper")
                            .withTimeout(TIMEOUT)
                            .withOption("connectString", server.connectString())
                            .withOption("sessionTimeout", "10s")
                            .withOption("retry.maxRetries", "29"));

    @AfterEach
    void close() {
        store.close();
        server.close();
    }

    @Test
    @DisplayName(
            "gives StoreTimeoutException within the budget, and no duplicate once the server is"
                    + " back")
    void timeoutThenNoDuplicate() {
        HistoryRecorder recorder = new HistoryRecorder();
        store.slots().define("workers", 4, Duration.ofMillis(500));
        for (int i = 0; i < 10; i++) {
            recorder.acquire(store.ranges(), "orders", 10);
        }
        SlotLease lease =
                recorder.acquire(store.slots(), "workers", "host-1", Duration.ofSeconds(5), 4);

        server.kill(1);
        for (Runnable op :
                new Runnable[] {
                    () -> store.ranges().acquire("orders", 10),
                    () -> store.ranges().peek("orders"),
                    () -> store.slots().acquire("workers", "host-2", Duration.ofSeconds(5)),
                    () -> store.slots().renew(lease)
                }) {
            long start = System.nanoTime();
            assertThatThrownBy(op::run).isInstanceOf(StoreTimeoutException.class);
            assertThat(Duration.ofNanos(System.nanoTime() - start))
                    .isLessThan(TIMEOUT.plusMillis(700));
        }

        server.restart(1);
        Range after =
                await("the store to work again")
                        .atMost(Duration.ofSeconds(30))
                        .ignoreExceptionsInstanceOf(StoreException.class)
                        .until(() -> recorder.acquire(store.ranges(), "orders", 10), r -> true);
        assertThat(after.start()).isGreaterThanOrEqualTo(100);
        for (int i = 0; i < 10; i++) {
            recorder.acquire(store.ranges(), "orders", 10);
        }
        HistoryChecker.Report report = HistoryChecker.check(recorder.events()).assertValid();
        assertThat(report.duplicates()).isZero();
    }
}
