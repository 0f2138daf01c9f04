package io.cosid.store.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosid.store.SlotLease;
import io.cosid.store.SlotsExhaustedException;
import io.cosid.store.Store;
import io.cosid.store.tck.HistoryChecker;
import io.cosid.store.tck.HistoryRecorder;
import io.cosid.store.zookeeper.harness.ZooKeeperServerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Clients with their own sessions racing on one key and one namespace get disjoint results. */
@DisplayName("Races on ZooKeeper, each client its own session")
class RacesTest {

    @RegisterExtension
    static final ZooKeeperServerExtension SERVER = ZooKeeperServerExtension.primary();

    private final ZooKeeperFixture fixture = new ZooKeeperFixture(SERVER.server());
    private final ExecutorService pool = Executors.newFixedThreadPool(65);

    @AfterEach
    void close() {
        pool.shutdownNow();
        fixture.close();
    }

    @Test
    @DisplayName(
            "64 owners racing for a 64-slot namespace get 64 distinct slots; a 65th is refused")
    void namespaceRace() throws Exception {
        fixture.openStore().slots().define("workers", 64, Duration.ofSeconds(1));
        HistoryRecorder recorder = new HistoryRecorder();
        List<Store> stores = new ArrayList<>();
        for (int i = 0; i < 65; i++) {
            stores.add(fixture.openStore());
        }
        CountDownLatch go = new CountDownLatch(1);
        AtomicInteger refused = new AtomicInteger();
        List<Future<Optional<SlotLease>>> results = new ArrayList<>();
        for (int i = 0; i < 65; i++) {
            Store s = stores.get(i);
            String owner = "owner-" + i;
            results.add(
                    pool.submit(
                            () -> {
                                go.await();
                                try {
                                    return Optional.of(
                                            recorder.acquire(
                                                    s.slots(),
                                                    "workers",
                                                    owner,
                                                    Duration.ofMinutes(5),
                                                    64));
                                } catch (SlotsExhaustedException e) {
                                    refused.incrementAndGet();
                                    return Optional.<SlotLease>empty();
                                }
                            }));
        }
        go.countDown();
        List<Integer> slots = new ArrayList<>();
        for (Future<Optional<SlotLease>> f : results) {
            f.get(60, TimeUnit.SECONDS).ifPresent(l -> slots.add(l.slot()));
        }
        assertThat(refused).hasValue(1);
        assertThat(slots).hasSize(64).doesNotHaveDuplicates().allMatch(s -> s >= 0 && s < 64);
        HistoryChecker.check(recorder.events()).assertValid();
    }

    @Test
    @DisplayName("8 clients racing on one key get disjoint, gap-free ranges")
    void keyRace() throws Exception {
        HistoryRecorder recorder = new HistoryRecorder();
        List<Future<?>> results = new ArrayList<>();
        CountDownLatch go = new CountDownLatch(1);
        for (int c = 0; c < 8; c++) {
            Store s = fixture.openStore();
            results.add(
                    pool.submit(
                            () -> {
                                go.await();
                                for (int i = 0; i < 150; i++) {
                                    recorder.acquire(s.ranges(), "hot", 10);
                                }
                                return null;
                            }));
        }
        go.countDown();
        for (Future<?> f : results) {
            f.get(120, TimeUnit.SECONDS);
        }
        HistoryChecker.Report report = HistoryChecker.check(recorder.events()).assertValid();
        assertThat(report.values()).isEqualTo(8 * 150 * 10);
        assertThat(report.gaps()).isZero();
    }
}
