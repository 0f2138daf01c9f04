package io.cosid.store.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cosid.store.Store;
import io.cosid.store.StoreCorruptedException;
import io.cosid.store.StoreException;
import io.cosid.store.tck.HistoryChecker;
import io.cosid.store.tck.HistoryRecorder;
import io.cosid.store.zookeeper.harness.ZooKeeperServerExtension;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Nodes changed by hand while stores use them, on a real server (docs/contract.md, "Corrupt data").
 * Every running store has seen the node above what an operator writes, so each refuses it, and
 * nothing is handed out twice.
 */
@DisplayName("Nodes tampered with while stores run")
class TamperedWhileRunningTest {

    @RegisterExtension
    static final ZooKeeperServerExtension SERVER = ZooKeeperServerExtension.primary();

    private final ZooKeeperFixture fixture = new ZooKeeperFixture(SERVER.server());

    @AfterEach
    void close() {
        fixture.close();
    }

    @Test
    @DisplayName(
            "a counter lowered on the right version while 4 stores acquire: each store refuses it,"
                    + " no value twice")
    void counterLoweredUnderLoad() throws Exception {
        HistoryRecorder recorder = new HistoryRecorder();
        List<Store> stores =
                List.of(
                        fixture.openStore(),
                        fixture.openStore(),
                        fixture.openStore(),
                        fixture.openStore());
        List<AtomicReference<StoreException>> lastError = new ArrayList<>();
        List<AtomicInteger> acquired = new ArrayList<>();
        List<Thread> clients = new ArrayList<>();
        for (Store store : stores) {
            AtomicReference<StoreException> error = new AtomicReference<>();
            AtomicInteger count = new AtomicInteger();
            lastError.add(error);
            acquired.add(count);
            Thread t =
                    new Thread(
                            () -> {
                                // acquire until this store refuses the node: a corrupt node stays
                                // refused
                                while (!(error.get() instanceof StoreCorruptedException)) {
                                    try {
                                        recorder.acquire(store.ranges(), "orders", 100);
                                        count.incrementAndGet();
                                    } catch (StoreException e) {
                                        error.set(e);
                                    }
                                }
                            });
            t.setDaemon(true);
            clients.add(t);
            t.start();
        }
        await("every store to have acquired")
                .atMost(Duration.ofSeconds(60))
                .until(() -> acquired.stream().allMatch(c -> c.get() >= 10));

        // the operator reads the node and writes "1" on the version it read, again until no client
        // came between
        String path = fixture.root() + "/range/orders";
        await("the operator's write to land")
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(1))
                .ignoreException(KeeperException.BadVersionException.class)
                .until(
                        () -> {
                            Stat stat = new Stat();
                            fixture.admin().getData().storingStatIn(stat).forPath(path);
                            fixture.admin()
                                    .setData()
                                    .withVersion(stat.getVersion())
                                    .forPath(path, "1".getBytes(StandardCharsets.US_ASCII));
                            return true;
                        });

        await("every store to refuse the lowered node")
                .atMost(Duration.ofSeconds(60))
                .until(
                        () ->
                                lastError.stream()
                                        .allMatch(e -> e.get() instanceof StoreCorruptedException));
        for (Thread t : clients) {
            t.join(30_000);
        }
        assertThat(lastError).allSatisfy(e -> assertThat(e.get()).hasMessageContaining("below"));
        assertThat(fixture.raw("/range/orders"))
                .as("the node is left as the operator wrote it")
                .isEqualTo("1");
        HistoryChecker.Report report = HistoryChecker.check(recorder.events());
        report.assertValid();
        assertThat(report.duplicates()).isZero();
    }
}
