package io.cosid.store.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosid.store.Store;
import io.cosid.store.StoreException;
import io.cosid.store.tck.HistoryChecker;
import io.cosid.store.tck.HistoryRecorder;
import io.cosid.store.tck.net.DelayingProxy;
import io.cosid.store.zookeeper.harness.ZooKeeperServerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Clients at unequal distances from the server on one hot key are all served within a bound
 * (docs/contract.md, "Liveness under contention"): some reach the server through a proxy that adds
 * one-way latency, as a client in another rack or zone would, and all of them acquire back to back
 * on one key. Every client gets ranges and none of its acquires runs out of its budget, from the
 * first acquire on a fresh key too. (Compare-and-set alone gives the nearer client nearly
 * everything: a client 2 ms further away once got 33 acquires against 37,012.) Shares per window
 * and waits are printed for the record; as figures they belong to the side-by-side benchmark
 * (docs/performance.md), since on a busy machine they depend on the scheduler, not the store.
 */
@DisplayName("Liveness on ZooKeeper: clients at unequal distances on a hot key are all served")
class UnequalDistanceTest {

    @RegisterExtension
    static final ZooKeeperServerExtension SERVER = ZooKeeperServerExtension.primary();

    private static final Duration BUDGET = Duration.ofSeconds(5);

    private final ZooKeeperFixture fixture = new ZooKeeperFixture(SERVER.server());
    private final List<Store> stores = new ArrayList<>();
    private final List<DelayingProxy> proxies = new ArrayList<>();
    private final ExecutorService pool = Executors.newCachedThreadPool();
    private final HistoryRecorder recorder = new HistoryRecorder();

    @AfterEach
    void close() {
        pool.shutdownNow();
        stores.forEach(Store::close);
        proxies.forEach(DelayingProxy::close);
        fixture.close();
    }

    @ParameterizedTest(name = "{0} near, {1} further by {2} ms one way")
    @CsvSource({"1, 1, 1", "1, 1, 2", "1, 1, 5", "3, 1, 2", "2, 2, 5"})
    @DisplayName(
            "every client gets ranges for 4 s and no acquire runs out of its budget; no range"
                    + " twice")
    void everyClientServed(int near, int far, int delayMillis) throws Exception {
        assertAllServed(
                "hot-" + near + "-" + far + "-" + delayMillis,
                clients(near, far, delayMillis),
                2,
                TimeUnit.SECONDS.toNanos(2));
    }

    /**
     * The key's line of waiting writers forms while the near clients already write: the far client
     * must be served from its first acquire on (a write that read the line before the far client's
     * seat was posted fails on the line's version and reads it again, so no write lands that left
     * the seat out). Fresh keys, so that every round starts with the line forming.
     */
    @Test
    @DisplayName(
            "a client further away that starts while the others already write is served within"
                    + " its budget, on every fresh key")
    void servedFromTheStart() throws Exception {
        List<Client> clients = clients(3, 1, 2);
        for (int round = 0; round < 8; round++) {
            assertAllServed("start-" + round, clients, 1, TimeUnit.MILLISECONDS.toNanos(500));
        }
    }

    /**
     * Tried from outside once: a client 2 ms further away while the CPUs were busy with other work
     * (load 11 on 2 cores) got 37 acquires against 643 and 6 timeouts of 3 s. Here four threads per
     * core spin beside the clients for the whole run.
     */
    @Test
    @DisplayName(
            "a client further away on a machine whose CPUs are saturated by other work is served:"
                    + " no acquire runs out of its budget")
    void servedOnASaturatedMachine() throws Exception {
        List<Client> clients = clients(1, 1, 2);
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> burners = new ArrayList<>();
        for (int i = 0; i < 4 * Runtime.getRuntime().availableProcessors(); i++) {
            Thread burner =
                    new Thread(
                            () -> {
                                long x = 0;
                                while (!stop.get()) {
                                    x += System.nanoTime() % 7;
                                }
                                if (x == 42) {
                                    System.out.print(""); // keeps the loop from being elided
                                }
                            },
                            "burner-" + i);
            burner.setDaemon(true);
            burner.start();
            burners.add(burner);
        }
        try {
            assertAllServed("saturated", clients, 2, TimeUnit.SECONDS.toNanos(2));
        } finally {
            stop.set(true);
            for (Thread burner : burners) {
                burner.join();
            }
        }
    }

    /** A store and the name its shares are listed under. */
    private record Client(String name, Store store) {}

    /** {@code near} clients straight to the server, {@code far} through one delaying proxy. */
    private List<Client> clients(int near, int far, int delayMillis) {
        DelayingProxy proxy =
                new DelayingProxy(
                        port(SERVER.server().connectString()), Duration.ofMillis(delayMillis));
        proxies.add(proxy);
        List<Client> clients = new ArrayList<>();
        for (int i = 0; i < near; i++) {
            clients.add(new Client("near-" + i, open(SERVER.server().connectString())));
        }
        for (int i = 0; i < far; i++) {
            clients.add(new Client("far-" + i, open(proxy.connectString())));
        }
        return clients;
    }

    /** What one client did: when each acquire returned, and its longest acquire. */
    private record Run(List<Long> returnedAt, long longestNanos) {}

    /**
     * Every client acquires back to back on {@code key} for {@code windows} windows of {@code
     * windowNanos} from one start (the acquire under way at the end finishes); asserts that none
     * failed (so each acquire returned within the budget), every client got ranges, and no range
     * was handed out twice. Prints the counts per window and each client's longest acquire.
     */
    private void assertAllServed(String key, List<Client> clients, int windows, long windowNanos)
            throws Exception {
        clients.get(0).store().ranges().acquire(key, 1); // the key exists before anybody is timed
        CountDownLatch go = new CountDownLatch(1);
        long[] end = new long[1]; // set before go opens
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        List<Future<Run>> runs = new ArrayList<>();
        for (Client client : clients) {
            runs.add(
                    pool.submit(
                            () -> {
                                go.await();
                                List<Long> returnedAt = new ArrayList<>();
                                long longest = 0;
                                do {
                                    long sent = System.nanoTime();
                                    try {
                                        recorder.acquire(client.store().ranges(), key, 1);
                                        long now = System.nanoTime();
                                        returnedAt.add(now);
                                        longest = Math.max(longest, now - sent);
                                    } catch (StoreException e) {
                                        failures.add(client.name() + ": " + e);
                                    }
                                } while (System.nanoTime() < end[0]);
                                return new Run(returnedAt, longest);
                            }));
        }
        long startedAt = System.nanoTime();
        end[0] = startedAt + windows * windowNanos;
        go.countDown();
        StringBuilder table = new StringBuilder(key).append(":\n");
        List<String> unserved = new ArrayList<>();
        for (int c = 0; c < clients.size(); c++) {
            Run run = runs.get(c).get(60, TimeUnit.SECONDS);
            long[] perWindow = new long[windows + 1]; // the last counts what returned after the end
            for (long at : run.returnedAt()) {
                perWindow[(int) Math.min(windows, (at - startedAt) / windowNanos)]++;
            }
            String name = clients.get(c).name();
            table.append(name)
                    .append(": per window ")
                    .append(Arrays.toString(perWindow))
                    .append(", longest acquire ")
                    .append(TimeUnit.NANOSECONDS.toMillis(run.longestNanos()))
                    .append(" ms\n");
            if (run.returnedAt().isEmpty()) {
                unserved.add(name);
            }
        }
        System.out.print(table);
        assertThat(failures)
                .as("acquires that failed or ran out of their budget (%s)", table)
                .isEmpty();
        assertThat(unserved).as("clients that got no range (%s)", table).isEmpty();
        HistoryChecker.check(recorder.events()).assertValid();
    }

    private Store open(String connectString) {
        Store s =
                ZooKeeperStores.open(
                        fixture.config()
                                .withTimeout(BUDGET)
                                .withOption("connectString", connectString));
        stores.add(s);
        return s;
    }

    private static int port(String connectString) {
        return Integer.parseInt(connectString.substring(connectString.lastIndexOf(':') + 1));
    }
}
