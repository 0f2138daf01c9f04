package io.cosid.store.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.tck.HistoryChecker;
import io.cosid.store.tck.HistoryRecorder;
import io.cosid.store.zookeeper.harness.InProcessServer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Contention while a key's data version crosses -1, the "any version" value that a compare-and-set
 * must never send (the one write there claims the state it replaces, {@code NodeChange}): several
 * stores with several threads each acquire on the key while its version, and its line's, pass the
 * wrap. Every acquire must return within its budget, and the ranges stay disjoint. (On the writer
 * line this layout once wedged: 22 of 4,800 acquires timed out over 200 rounds.)
 */
@DisplayName("Contention across the data-version wrap")
class WrapContentionTest {

    private static final int ROUNDS = 100;
    private static final int STORES = 4;
    private static final int THREADS = 2;
    private static final int EACH = 3;

    private final InProcessServer server = InProcessServer.start();
    private final String root = "/wrap-" + System.nanoTime();
    private final List<Store> stores = new ArrayList<>();
    private final ExecutorService pool = Executors.newCachedThreadPool();
    private final HistoryRecorder recorder = new HistoryRecorder();

    @AfterEach
    void close() {
        pool.shutdownNow();
        stores.forEach(Store::close);
        server.close();
    }

    @Test
    @DisplayName(
            "four stores of two threads each acquire while the key's and its line's versions cross"
                    + " -1: every acquire returns, no range twice")
    void everyAcquireReturnsAcrossTheWrap() throws Exception {
        for (int i = 0; i < STORES; i++) {
            stores.add(
                    ZooKeeperStores.open(
                            StoreConfig.of("wrap-" + i, "zookeeper")
                                    .withTimeout(Duration.ofSeconds(10))
                                    .withOption("connectString", server.connectString())
                                    .withOption("root", root)));
        }
        for (int round = 0; round < ROUNDS; round++) {
            String key = "k" + round;
            recorder.acquire(stores.get(0).ranges(), key, 1); // the key's node
            recorder.acquire(stores.get(1).ranges(), key, 1); // and its line
            server.setVersion(root + "/range/" + key, -3);
            server.setVersion(root + "/.line/" + sha256(key), -2);
            CyclicBarrier start = new CyclicBarrier(STORES * THREADS);
            List<Future<?>> runs = new ArrayList<>();
            for (Store store : stores) {
                for (int t = 0; t < THREADS; t++) {
                    runs.add(
                            pool.submit(
                                    () -> {
                                        start.await();
                                        for (int i = 0; i < EACH; i++) {
                                            recorder.acquire(store.ranges(), key, 1 + i);
                                        }
                                        return null;
                                    }));
                }
            }
            for (Future<?> run : runs) {
                run.get(60, TimeUnit.SECONDS); // a timed-out acquire fails the test here
            }
            assertThat(stores.get(0).ranges().peek(key).orElseThrow().next())
                    .as("round %d: every value handed out, and only those", round)
                    .isEqualTo(2 + (long) STORES * THREADS * (1 + 2 + 3));
        }
        HistoryChecker.check(recorder.events()).assertValid();
    }

    private static String sha256(String key) throws Exception {
        return HexFormat.of()
                .formatHex(
                        MessageDigest.getInstance("SHA-256")
                                .digest(key.getBytes(StandardCharsets.UTF_8)));
    }
}
