package io.cosid.store.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosid.store.Store;
import io.cosid.store.StoreException;
import io.cosid.store.tck.HistoryChecker;
import io.cosid.store.tck.HistoryRecorder;
import io.cosid.store.zookeeper.harness.ZooKeeperServerExtension;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.apache.zookeeper.CreateMode;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Contention on one key across processes must not starve anybody: a store that joins a key others
 * are writing gets every acquire within its budget. Two ways it used to fail: a loser's backoff
 * aged the state it had just read, so its retry was bound to lose again (at any load where others
 * write more often than the backoff window); and a writer with back-to-back demand always beat the
 * losers to the next version. How a waiting writer is served is {@link SeatsTest}'s.
 */
@DisplayName("Fairness on ZooKeeper: nobody starves on a hot key")
class FairnessTest {

    @RegisterExtension
    static final ZooKeeperServerExtension SERVER = ZooKeeperServerExtension.primary();

    private static final Duration BUDGET = Duration.ofSeconds(2);
    private static final int JOINER_ACQUIRES = 200;

    private final ZooKeeperFixture fixture = new ZooKeeperFixture(SERVER.server());
    private final ExecutorService pool = Executors.newCachedThreadPool();
    private final List<Store> stores = new ArrayList<>();
    private final AtomicBoolean stop = new AtomicBoolean();
    private final HistoryRecorder recorder = new HistoryRecorder();

    @AfterEach
    void close() {
        stop.set(true);
        pool.shutdownNow();
        stores.forEach(Store::close);
        fixture.close();
    }

    @Test
    @DisplayName(
            "a store joining a key that three others write back to back gets each acquire within"
                    + " its budget")
    void lateJoinerAgainstBackToBackWriters() throws Exception {
        assertJoinerIsServed(0);
    }

    @Test
    @DisplayName(
            "a store on a key that three others write steadily gets each acquire within its budget")
    void joinerAgainstSteadyWriters() throws Exception {
        assertJoinerIsServed(TimeUnit.MILLISECONDS.toNanos(2));
    }

    @Test
    @DisplayName(
            "a seat whose writer never comes for its range (its session alive) is served by the"
                    + " next write and holds nobody up")
    void stalledWriterInLine() throws Exception {
        Store store = open();
        String line = lineOfUsedKey(store, "hot");
        // another session posts a seat as a writer does (asking for five values, the line's
        // version bumped) and then never reads its result: a paused or hung process
        String stalled =
                fixture.admin()
                        .create()
                        .withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
                        .forPath(line + "/s-0-5-stalled-");
        fixture.admin().setData().forPath(line, new byte[0]);

        assertThat(recorder.acquire(store.ranges(), "hot", 1).start()).isEqualTo(2);
        assertThat(fixture.admin().checkExists().forPath(stalled)).as("the seat").isNull();
        String result = line + "/r-" + stalled.substring(stalled.lastIndexOf('/') + 1);
        assertThat(fixture.admin().getData().forPath(result))
                .as("its result: the five values after the write's own")
                .asString(StandardCharsets.US_ASCII)
                .isEqualTo("3:8");
        for (int i = 0; i < 5; i++) {
            assertThat(recorder.acquire(store.ranges(), "hot", 1).start()).isEqualTo(8 + i);
        }
        HistoryChecker.check(recorder.events()).assertValid();
    }

    @Test
    @DisplayName("a write serves at most 64 seats, oldest first; the next write serves the rest")
    void servesAtMost64SeatsPerWrite() throws Exception {
        Store store = open();
        String line = lineOfUsedKey(store, "hot");
        for (int i = 0; i < 70; i++) {
            // order i: seat i is the i-th oldest
            fixture.admin()
                    .create()
                    .withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
                    .forPath(line + "/s-" + i + "-1-held-");
        }
        fixture.admin().setData().forPath(line, new byte[0]);

        assertThat(recorder.acquire(store.ranges(), "hot", 1).start()).isEqualTo(2);
        List<String> left =
                fixture.admin().getChildren().forPath(line).stream()
                        .filter(c -> c.startsWith("s-"))
                        .toList();
        assertThat(left)
                .as("the seats the first write left: the six youngest")
                .hasSize(6)
                .allMatch(c -> Integer.parseInt(c.substring(2, c.indexOf('-', 2))) >= 64);
        assertThat(recorder.acquire(store.ranges(), "hot", 1).start())
                .as("after the write's own value and the 64 seats it served")
                .isEqualTo(2 + 1 + 64);
        assertThat(fixture.admin().getChildren().forPath(line))
                .as("the seats after the second write")
                .noneMatch(c -> c.startsWith("s-"));
        HistoryChecker.check(recorder.events()).assertValid();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"s-x-", "w-s1-older-"})
    @DisplayName(
            "a seat that declares no size (placed by hand), or a w-s seat of an earlier version's"
                    + " writer line, is not served and holds nobody up")
    void foreignSeatIsNotServed(String name) throws Exception {
        Store store = open();
        String line = lineOfUsedKey(store, "hot");
        String seat =
                fixture.admin()
                        .create()
                        .withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
                        .forPath(line + "/" + name);
        fixture.admin().setData().forPath(line, new byte[0]);
        for (int i = 0; i < 5; i++) {
            assertThat(recorder.acquire(store.ranges(), "hot", 1).start()).isEqualTo(2 + i);
        }
        assertThat(fixture.admin().getChildren().forPath(line))
                .as("the seat, left alone, and no result")
                .containsExactly(seat.substring(seat.lastIndexOf('/') + 1));
        HistoryChecker.check(recorder.events()).assertValid();
    }

    /**
     * Acquires {@code key} twice with {@code store} (its node, then its line) and returns the line.
     */
    private String lineOfUsedKey(Store store, String key) throws Exception {
        recorder.acquire(store.ranges(), key, 1); // creates the key's node
        recorder.acquire(store.ranges(), key, 1); // and its line
        String line = fixture.root() + "/.line/" + sha256(key);
        assertThat(fixture.admin().checkExists().forPath(line)).isNotNull();
        return line;
    }

    private static String sha256(String key) throws Exception {
        return HexFormat.of()
                .formatHex(
                        MessageDigest.getInstance("SHA-256")
                                .digest(key.getBytes(StandardCharsets.UTF_8)));
    }

    /**
     * Three background stores write the key (each pausing {@code pacingNanos} between acquires, to
     * set the load, not to wait for anything) until a fourth has done its acquires; every acquire
     * of all four must end inside the budget, and the whole history must be disjoint.
     */
    private void assertJoinerIsServed(long pacingNanos) throws Exception {
        List<Future<Long>> background = new ArrayList<>();
        AtomicLong backgroundAcquires = new AtomicLong();
        for (int i = 0; i < 3; i++) {
            Store s = open();
            background.add(
                    pool.submit(
                            () -> {
                                while (!stop.get()) {
                                    recorder.acquire(s.ranges(), "hot", 1);
                                    backgroundAcquires.incrementAndGet();
                                    if (pacingNanos > 0) {
                                        LockSupport.parkNanos(pacingNanos);
                                    }
                                }
                                return backgroundAcquires.get();
                            }));
        }
        // the background writers are under way (and have settled into their pattern) before the
        // joiner starts
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .until(() -> backgroundAcquires.get() >= 300);
        Store joiner = open();
        List<String> failures = new ArrayList<>();
        long slowestNanos = 0;
        for (int i = 0; i < JOINER_ACQUIRES; i++) {
            long started = System.nanoTime();
            try {
                recorder.acquire(joiner.ranges(), "hot", 1);
            } catch (StoreException e) {
                failures.add("acquire " + i + ": " + e);
            }
            slowestNanos = Math.max(slowestNanos, System.nanoTime() - started);
        }
        stop.set(true);
        System.out.printf(
                "joiner: %d acquires, slowest %d ms; background writers: %d acquires%n",
                JOINER_ACQUIRES,
                TimeUnit.NANOSECONDS.toMillis(slowestNanos),
                backgroundAcquires.get());
        for (Future<Long> f : background) {
            f.get(30, TimeUnit.SECONDS); // a background writer's timeout fails the test here
        }
        assertThat(failures)
                .as(
                        "the joiner's failed acquires (slowest took %d ms; background writers did"
                                + " %d)",
                        TimeUnit.NANOSECONDS.toMillis(slowestNanos), backgroundAcquires.get())
                .isEmpty();
        HistoryChecker.check(recorder.events()).assertValid();
    }

    private Store open() {
        Store s = ZooKeeperStores.open(fixture.config().withTimeout(BUDGET));
        stores.add(s);
        return s;
    }
}
