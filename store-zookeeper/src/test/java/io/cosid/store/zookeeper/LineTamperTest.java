package io.cosid.store.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosid.store.Range;
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
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A key written by hand while its writers contend and wait in its line: every write is a
 * compare-and-set over a state a store read or wrote, so a hand edit fails the next write and is
 * read, never written over. A key raised by hand stays raised; a key lowered, or deleted and
 * recreated, by hand is refused (docs/contract.md, "Liveness under contention" and "Corrupt data").
 */
@DisplayName("A key written by hand while writers contend and wait in its line")
class LineTamperTest {

    @RegisterExtension
    static final ZooKeeperServerExtension SERVER = ZooKeeperServerExtension.primary();

    private static final String KEY = "turns";

    private final ZooKeeperFixture fixture = new ZooKeeperFixture(SERVER.server());
    private final ExecutorService pool = Executors.newCachedThreadPool();
    private final List<Store> stores = new ArrayList<>();
    private final AtomicBoolean stop = new AtomicBoolean();
    private final HistoryRecorder recorder = new HistoryRecorder();
    private final AtomicLong acquires = new AtomicLong();
    private final ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Range> after = new ConcurrentLinkedQueue<>();
    private volatile boolean edited;

    @AfterEach
    void close() {
        stop.set(true);
        pool.shutdownNow();
        stores.forEach(Store::close);
        fixture.close();
    }

    /** Three stores acquiring back to back on the key (so they contend, and wait in its line). */
    private List<Future<?>> writers() {
        List<Future<?>> running = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Store s = ZooKeeperStores.open(fixture.config().withTimeout(Duration.ofSeconds(5)));
            stores.add(s);
            running.add(
                    pool.submit(
                            () -> {
                                while (!stop.get()) {
                                    boolean afterEdit = edited;
                                    try {
                                        Range r = recorder.acquire(s.ranges(), KEY, 10);
                                        acquires.incrementAndGet();
                                        if (afterEdit) {
                                            after.add(r);
                                        }
                                    } catch (StoreException e) {
                                        failures.add(e);
                                        return;
                                    }
                                }
                            }));
        }
        return running;
    }

    private long current() throws Exception {
        String text =
                new String(
                        fixture.admin().getData().forPath(fixture.root() + "/range/" + KEY),
                        StandardCharsets.UTF_8);
        return Long.parseLong(text);
    }

    @Test
    @DisplayName("a key raised by hand stays raised: every range begun after the edit is above it")
    void raisedByHand() throws Exception {
        List<Future<?>> running = writers();
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> acquires.get() >= 300);
        long raised = current() + 1_000_000;
        fixture.rewriteRange(KEY, raised, false);
        assertEveryLaterRangeAtLeast(running, raised);
        assertThat(current()).isGreaterThan(raised);
    }

    @Test
    @DisplayName(
            "an advance from another store while writers contend holds: every later range is"
                    + " above it")
    void advancedMeanwhile() throws Exception {
        List<Future<?>> running = writers();
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> acquires.get() >= 300);
        long raised;
        try (Store operator = ZooKeeperStores.open(fixture.config())) {
            raised = operator.ranges().advance(KEY, current() + 1_000_000);
        }
        assertEveryLaterRangeAtLeast(running, raised);
    }

    /**
     * After the key was raised to {@code raised}: the writers go on for 300 more acquires, none
     * fails, every range begun after the raise starts at or above it, and nothing was handed out
     * twice.
     */
    private void assertEveryLaterRangeAtLeast(List<Future<?>> running, long raised)
            throws Exception {
        edited = true;
        long at = acquires.get();
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> acquires.get() >= at + 300);
        stop.set(true);
        for (Future<?> f : running) {
            f.get(30, TimeUnit.SECONDS);
        }
        assertThat(failures).isEmpty();
        assertThat(after)
                .isNotEmpty()
                .allSatisfy(r -> assertThat(r.start()).isGreaterThanOrEqualTo(raised));
        HistoryChecker.check(recorder.events()).assertValid();
    }

    @Test
    @DisplayName("a key lowered by hand is refused, never written over")
    void loweredByHand() throws Exception {
        List<Future<?>> running = writers();
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> acquires.get() >= 300);
        long before = current();
        fixture.rewriteRange(KEY, 5, false);
        assertEveryStoreRefuses(running, "lowered");
        assertThat(current()).as("the lowered value, left as it was found").isEqualTo(5);
        assertThat(before).isGreaterThan(5);
    }

    @Test
    @DisplayName("a key deleted and recreated by hand is refused, never written over")
    void recreatedByHand() throws Exception {
        List<Future<?>> running = writers();
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> acquires.get() >= 300);
        fixture.recreateRange(KEY);
        long found = current();
        assertEveryStoreRefuses(running, "recreated");
        assertThat(current()).as("the recreated node, left as it was found").isEqualTo(found);
    }

    /**
     * After a hand edit: every writer ends with {@code StoreCorruptedException}, no range begins
     * after the edit, and nothing was handed out twice.
     */
    private void assertEveryStoreRefuses(List<Future<?>> running, String edit) throws Exception {
        edited = true;
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .until(() -> failures.size() == running.size());
        for (Future<?> f : running) {
            f.get(30, TimeUnit.SECONDS);
        }
        assertThat(failures)
                .allSatisfy(e -> assertThat(e).isInstanceOf(StoreCorruptedException.class));
        assertThat(after).as("ranges begun after the key was " + edit).isEmpty();
        HistoryChecker.check(recorder.events()).assertValid();
    }
}
