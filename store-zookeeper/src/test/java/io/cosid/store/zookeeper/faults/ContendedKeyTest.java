package io.cosid.store.zookeeper.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosid.store.Store;
import io.cosid.store.StoreException;
import io.cosid.store.tck.HistoryChecker;
import io.cosid.store.tck.HistoryRecorder;
import io.cosid.store.zookeeper.ZooKeeperFixture;
import io.cosid.store.zookeeper.ZooKeeperStores;
import io.cosid.store.zookeeper.harness.ZooKeeperServerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Eight clients, each its own store and session, acquire back to back on one key: every acquire
 * must end inside the store's timeout, however the machine schedules them (issue: "Liveness under
 * starvation"). Short here; with {@code -Dcosid.soak=true} it runs for two minutes, and
 * docs/reliability.md has its figures with {@code stress-ng} saturating the CPUs beside it.
 */
@DisplayName("One key, eight clients writing back to back")
class ContendedKeyTest {

    @RegisterExtension
    static final ZooKeeperServerExtension SERVER = ZooKeeperServerExtension.primary();

    private static final int CLIENTS = 8;
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private final ZooKeeperFixture fixture = new ZooKeeperFixture(SERVER.server());
    private final List<Store> stores = new ArrayList<>();

    @AfterEach
    void close() {
        stores.forEach(Store::close);
        fixture.close();
    }

    @Test
    @DisplayName("every acquire of every client ends inside the store's timeout, and none overlap")
    void everyAcquireServed() throws Exception {
        Duration runFor = Duration.ofSeconds(Soak.scale(4, 120));
        HistoryRecorder recorder = new HistoryRecorder();
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        long[][] latencies = new long[CLIENTS][];
        CountDownLatch done = new CountDownLatch(CLIENTS);
        List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < CLIENTS; c++) {
            Store store = ZooKeeperStores.open(fixture.config().withTimeout(TIMEOUT));
            stores.add(store);
            int client = c;
            Thread t =
                    new Thread(
                            () -> {
                                List<Long> mine = new ArrayList<>();
                                long end = System.nanoTime() + runFor.toNanos();
                                try {
                                    while (System.nanoTime() < end) {
                                        long started = System.nanoTime();
                                        try {
                                            recorder.acquire(store.ranges(), "hot", 1);
                                        } catch (StoreException e) {
                                            failures.add("client " + client + ": " + e);
                                        }
                                        mine.add(System.nanoTime() - started);
                                    }
                                } finally {
                                    latencies[client] =
                                            mine.stream().mapToLong(Long::longValue).toArray();
                                    done.countDown();
                                }
                            },
                            "contender-" + c);
            threads.add(t);
        }
        threads.forEach(Thread::start);
        assertThat(done.await(runFor.toSeconds() + 60, TimeUnit.SECONDS))
                .as("every client finished")
                .isTrue();
        long[] all = Arrays.stream(latencies).flatMapToLong(Arrays::stream).sorted().toArray();
        HistoryChecker.Report report = HistoryChecker.check(recorder.events());
        String figures =
                FaultFigures.report("contended-key", all.length, 0, failures.size(), report)
                        + String.format(
                                " clients=%d median=%.1fms p99=%.1fms slowest=%.1fms",
                                CLIENTS,
                                all[all.length / 2] / 1e6,
                                all[(int) (all.length * 0.99)] / 1e6,
                                all[all.length - 1] / 1e6);
        System.out.println(figures);
        report.assertValid();
        assertThat(failures).as("acquires that did not end inside %s", TIMEOUT).isEmpty();
        for (int c = 0; c < CLIENTS; c++) {
            assertThat(latencies[c]).as("client %d was served", c).isNotEmpty();
        }
    }
}
