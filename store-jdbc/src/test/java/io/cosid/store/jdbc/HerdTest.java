package io.cosid.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosid.store.Range;
import io.cosid.store.SlotLease;
import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.jdbc.harness.PostgresExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Many instances at once on one PostgreSQL server: a herd starting in one namespace takes distinct
 * slots without retrying, three statements per acquire; writers on one key get disjoint ranges that
 * leave no gap. Counted, not timed.
 */
@DisplayName("Many instances at once (PostgreSQL)")
class HerdTest {

    @RegisterExtension static final PostgresExtension SERVER = PostgresExtension.newest();

    private static final int STORES = 8;
    private static final int THREADS_PER_STORE = 8;

    private static int prefixes;

    private final List<Store> opened = new ArrayList<>();
    private final List<ConnectionPool> pools = new ArrayList<>();
    private final String prefix = "herd" + ++prefixes + "_";

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
                        SERVER.jdbcUrl(),
                        new Properties(),
                        THREADS_PER_STORE,
                        Duration.ofMinutes(1));
        pools.add(pool);
        return new CountingDataSource(pool);
    }

    @Test
    @DisplayName(
            "1024 instances starting together in one namespace take 1024 distinct slots, each"
                    + " acquire three statements and one commit")
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
                .isEqualTo(3L * instances);
        assertThat(commits).isEqualTo(instances);
    }

    @Test
    @DisplayName(
            "8 stores x 8 threads acquiring on one key get disjoint ranges that leave no gap, one"
                    + " statement each")
    void writersOnOneKey() throws Exception {
        List<CountingDataSource> counters = new ArrayList<>();
        List<Store> stores = new ArrayList<>();
        for (int i = 0; i < STORES; i++) {
            counters.add(counting());
            stores.add(store(counters.get(i)));
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
        List<Range> all = new ArrayList<>();
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
        assertThat(expected).isEqualTo(10L * perThread * STORES * THREADS_PER_STORE);
        long statements = counters.stream().mapToLong(c -> c.statements.get()).sum() - before;
        assertThat(statements)
                .as("one statement per acquire: the row lock queues writers, no retries")
                .isEqualTo((long) perThread * STORES * THREADS_PER_STORE);
    }
}
