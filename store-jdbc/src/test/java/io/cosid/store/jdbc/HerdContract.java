package io.cosid.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosid.store.Range;
import io.cosid.store.SlotLease;
import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Many instances at once on one server: a herd starting in one namespace takes distinct slots
 * without retrying, a fixed number of statements per acquire; writers on one key get disjoint
 * ranges that leave no gap, one statement per acquire. Counted, not timed. One short class per
 * server ({@link PostgresHerdTest}, {@link MariaDbHerdTest}).
 */
abstract class HerdContract {

    private static final int STORES = 8;
    private static final int THREADS_PER_STORE = 8;

    private static final AtomicInteger PREFIXES = new AtomicInteger();

    /** The JDBC URL of the server's database for this class. */
    abstract String jdbcUrl();

    /**
     * The statements of one slot acquire: three where a {@code WITH} clause may write (the term and
     * the owner index in one), four elsewhere.
     */
    abstract int statementsPerSlotAcquire();

    private final List<Store> opened = new ArrayList<>();
    private final List<ConnectionPool> pools = new ArrayList<>();
    private final String prefix = "herd" + PREFIXES.incrementAndGet() + "_";

    @AfterEach
    void close() {
        opened.forEach(Store::close);
        pools.forEach(ConnectionPool::close);
    }

    private Store store(CountingDataSource counting) {
        Store store =
                JdbcStores.open(
                        StoreConfig.of("herd", JdbcStoreProvider.TYPE)
                                .withTimeout(Duration.ofMinutes(1))
                                .withOption("tablePrefix", prefix)
                                .withOption("schema", "create"),
                        counting);
        opened.add(store);
        return store;
    }

    private CountingDataSource counting() {
        ConnectionPool pool =
                new ConnectionPool(
                        jdbcUrl(), new Properties(), THREADS_PER_STORE, Duration.ofMinutes(1));
        pools.add(pool);
        return new CountingDataSource(pool);
    }

    @Test
    @DisplayName(
            "1024 instances starting together in one namespace take 1024 distinct slots, each"
                    + " acquire a fixed number of statements and one commit")
    void herdStartsInOneNamespace() throws Exception {
        int instances = 1024;
        List<CountingDataSource> counters = new ArrayList<>();
        List<Store> stores = new ArrayList<>();
        for (int i = 0; i < STORES; i++) {
            counters.add(counting());
            stores.add(store(counters.get(i)));
        }
        stores.get(0).slots().define("fleet", instances, Duration.ofSeconds(1));
        long statementsBefore = counters.stream().mapToLong(c -> c.statements.get()).sum();
        long commitsBefore = counters.stream().mapToLong(c -> c.commits.get()).sum();
        ExecutorService threads = Executors.newFixedThreadPool(STORES * THREADS_PER_STORE);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<SlotLease>> leases = new ArrayList<>();
        for (int i = 0; i < instances; i++) {
            Store store = stores.get(i % STORES);
            String owner = "instance-" + i;
            leases.add(
                    threads.submit(
                            () -> {
                                go.await();
                                return store.slots().acquire("fleet", owner, Duration.ofMinutes(5));
                            }));
        }
        go.countDown();
        TreeSet<Integer> slots = new TreeSet<>();
        for (Future<SlotLease> lease : leases) {
            slots.add(lease.get().slot());
        }
        threads.shutdown();
        assertThat(slots).hasSize(instances);
        assertThat(slots.first()).isZero();
        assertThat(slots.last()).isEqualTo(instances - 1);
        long statements =
                counters.stream().mapToLong(c -> c.statements.get()).sum() - statementsBefore;
        long commits = counters.stream().mapToLong(c -> c.commits.get()).sum() - commitsBefore;
        assertThat(statements)
                .as("statements for %d acquires", instances)
                .isEqualTo((long) statementsPerSlotAcquire() * instances);
        assertThat(commits).isEqualTo(instances);
    }

    @Test
    @DisplayName("8 processes acquiring on one key get disjoint ranges that leave no gap")
    void processesOnOneKey() throws Exception {
        store(counting()).ranges().peek("orders"); // creates the tables
        int processes = 8;
        int each = 100;
        List<Process> workers = new ArrayList<>();
        for (int p = 0; p < processes; p++) {
            workers.add(
                    new ProcessBuilder(
                                    Path.of(System.getProperty("java.home"), "bin", "java")
                                            .toString(),
                                    "-cp",
                                    System.getProperty("java.class.path"),
                                    RangeWorker.class.getName(),
                                    jdbcUrl(),
                                    prefix,
                                    "orders",
                                    Integer.toString(each))
                            .redirectError(ProcessBuilder.Redirect.INHERIT)
                            .start());
        }
        List<long[]> ranges = new ArrayList<>();
        for (Process worker : workers) {
            String out = new String(worker.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(worker.waitFor(2, TimeUnit.MINUTES)).isTrue();
            assertThat(worker.exitValue()).isZero();
            out.lines()
                    .map(line -> line.split(" ", -1))
                    .forEach(
                            p ->
                                    ranges.add(
                                            new long[] {
                                                Long.parseLong(p[0]), Long.parseLong(p[1])
                                            }));
        }
        ranges.sort((a, b) -> Long.compare(a[0], b[0]));
        long expected = 0;
        for (long[] r : ranges) {
            assertThat(r[0]).as("no gap, no overlap").isEqualTo(expected);
            expected = r[1];
        }
        assertThat(ranges).hasSize(processes * each);
    }

    @Test
    @DisplayName(
            "8 stores x 8 threads acquiring on one key get disjoint ranges that leave no gap, one"
                    + " statement each once a store knows the key")
    void writersOnOneKey() throws Exception {
        List<CountingDataSource> counters = new ArrayList<>();
        List<Store> stores = new ArrayList<>();
        for (int i = 0; i < STORES; i++) {
            counters.add(counting());
            stores.add(store(counters.get(i)));
        }
        // each store's first write on the key learns its row (on MySQL two statements more, once)
        List<Range> all = new ArrayList<>();
        for (Store store : stores) {
            all.add(store.ranges().acquire("orders", 10));
        }
        long before = counters.stream().mapToLong(c -> c.statements.get()).sum();
        int perThread = 50;
        ExecutorService threads = Executors.newFixedThreadPool(STORES * THREADS_PER_STORE);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<List<Range>>> results = new ArrayList<>();
        for (int t = 0; t < STORES * THREADS_PER_STORE; t++) {
            Store store = stores.get(t % STORES);
            results.add(
                    threads.submit(
                            () -> {
                                go.await();
                                List<Range> ranges = new ArrayList<>();
                                for (int i = 0; i < perThread; i++) {
                                    ranges.add(store.ranges().acquire("orders", 10));
                                }
                                return ranges;
                            }));
        }
        go.countDown();
        for (Future<List<Range>> r : results) {
            all.addAll(r.get());
        }
        threads.shutdown();
        all.sort((a, b) -> Long.compare(a.start(), b.start()));
        long expected = 0;
        for (Range r : all) {
            assertThat(r.start()).as("no gap, no overlap").isEqualTo(expected);
            expected = r.end();
        }
        assertThat(expected).isEqualTo(10L * (perThread * STORES * THREADS_PER_STORE + STORES));
        long statements = counters.stream().mapToLong(c -> c.statements.get()).sum() - before;
        assertThat(statements)
                .as("one statement per acquire: the row lock queues writers, no retries")
                .isEqualTo((long) perThread * STORES * THREADS_PER_STORE);
    }
}
