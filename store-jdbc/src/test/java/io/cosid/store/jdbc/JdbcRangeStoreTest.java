package io.cosid.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cosid.store.Range;
import io.cosid.store.RangeExhaustedException;
import io.cosid.store.RangeSealedException;
import io.cosid.store.RangeState;
import io.cosid.store.RangeStore;
import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.StoreCorruptedException;
import io.cosid.store.jdbc.harness.PostgresServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * Ranges on a real PostgreSQL 18 ({@link JdbcRangeStore} over {@link RangeTable}): one statement
 * per write, disjoint ranges under contention, and rows changed behind the store's back refused and
 * left as they are.
 */
@DisplayName("Ranges on PostgreSQL")
class JdbcRangeStoreTest {

    private static PostgresServer server;

    private ConnectionPool dataSource;

    @BeforeAll
    static void start() {
        server = PostgresServer.start(System.getProperty("cosid.pg.version"));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private final List<Store> opened = new ArrayList<>();

    @BeforeEach
    void freshDatabase() {
        dataSource = TestPools.pool(server.jdbcUrl(server.createDatabase()));
    }

    @AfterEach
    void closeStores() {
        opened.forEach(Store::close);
        dataSource.close();
    }

    /** A store of its own on the test's database, as another process would open one. */
    private RangeStore store() {
        Store store =
                JdbcStores.open(
                        StoreConfig.of("ranges", JdbcStoreProvider.TYPE)
                                .withOption("schema", "create"),
                        dataSource);
        opened.add(store);
        return store.ranges();
    }

    @Nested
    @DisplayName("writes")
    class Writes {

        @Test
        @DisplayName("acquire starts at 0 and follows on; peek, advance, seal and list agree")
        void operations() {
            RangeStore store = store();
            assertThat(store.peek("orders")).isEmpty();
            assertThat(store.acquire("orders", 10)).isEqualTo(new Range("orders", 0, 10));
            assertThat(store.acquire("orders", 5)).isEqualTo(new Range("orders", 10, 15));
            assertThat(store.advance("orders", 12)).as("never lowers").isEqualTo(15);
            assertThat(store.advance("orders", 100)).isEqualTo(100);
            assertThat(store.acquire("orders", 1).start()).isEqualTo(100);
            assertThat(store.peek("orders")).contains(new RangeState(101, false));
            assertThat(store.seal("orders")).isEqualTo(101);
            assertThat(store.seal("orders")).as("idempotent").isEqualTo(101);
            assertThat(store.seal("never-used")).as("a key never used").isZero();
            assertThat(store.list())
                    .containsExactly(
                            Map.entry("never-used", new RangeState(0, true)),
                            Map.entry("orders", new RangeState(101, true)));
            assertThatThrownBy(() -> store.acquire("orders", 1))
                    .isInstanceOf(RangeSealedException.class)
                    .hasMessageContaining("101");
            assertThatThrownBy(() -> store.advance("orders", 500))
                    .isInstanceOf(RangeSealedException.class);
        }

        @Test
        @DisplayName("a key of 1,024 three-byte characters fits (rows are found by its hash)")
        void longKey() {
            String key =
                    "鍵".repeat(255)
                            + "/"
                            + "鍵".repeat(255)
                            + "/"
                            + "鍵".repeat(255)
                            + "/"
                            + "鍵".repeat(255);
            assertThat(store().acquire(key, 3)).isEqualTo(new Range(key, 0, 3));
            assertThat(store().peek(key)).contains(new RangeState(3, false));
        }

        @Test
        @DisplayName("8 connections acquiring at once get disjoint ranges that leave no gap")
        void contention() throws Exception {
            RangeStore store = store();
            int clients = 8;
            int each = 100;
            ExecutorService pool = Executors.newFixedThreadPool(clients);
            List<Future<List<Range>>> futures = new ArrayList<>();
            try {
                for (int t = 0; t < clients; t++) {
                    futures.add(
                            pool.submit(
                                    () -> {
                                        List<Range> got = new ArrayList<>();
                                        for (int i = 0; i < each; i++) {
                                            got.add(store.acquire("hot", 3));
                                        }
                                        return got;
                                    }));
                }
                List<Range> all = new ArrayList<>();
                for (Future<List<Range>> f : futures) {
                    all.addAll(f.get());
                }
                all.sort((a, b) -> Long.compare(a.start(), b.start()));
                for (int i = 0; i < all.size(); i++) {
                    assertThat(all.get(i)).isEqualTo(new Range("hot", 3L * i, 3L * i + 3));
                }
            } finally {
                pool.shutdownNow();
            }
        }

        @Test
        @DisplayName("a key that cannot grow by the size asked is exhausted, untouched")
        void exhausted() throws SQLException {
            RangeStore store = store();
            store.advance("orders", Long.MAX_VALUE - 5);
            assertThatThrownBy(() -> store.acquire("orders", 10))
                    .isInstanceOf(RangeExhaustedException.class);
            assertThat(next("orders")).contains(Long.MAX_VALUE - 5);
        }
    }

    @Nested
    @DisplayName("a row changed behind the store's back")
    class Tampering {

        @Test
        @DisplayName("sealed by hand: refused with its final value, untouched")
        void sealed() throws SQLException {
            RangeStore store = store();
            store.acquire("orders", 10);
            sql("UPDATE cosid_ranges SET sealed = true");
            assertThatThrownBy(() -> store.acquire("orders", 1))
                    .isInstanceOf(RangeSealedException.class)
                    .hasMessageContaining("10");
            assertThat(next("orders")).contains(10L);
        }

        @Test
        @DisplayName("lowered: refused, naming the value to raise it to, untouched")
        void lowered() throws SQLException {
            RangeStore store = store();
            store.acquire("orders", 10);
            sql("UPDATE cosid_ranges SET next_value = 4");
            assertThatThrownBy(() -> store.acquire("orders", 1))
                    .isInstanceOf(StoreCorruptedException.class)
                    .hasMessageContaining("advance to at least 10");
            assertThatThrownBy(() -> store.peek("orders"))
                    .isInstanceOf(StoreCorruptedException.class);
            assertThat(next("orders")).contains(4L);
        }

        @Test
        @DisplayName("deleted: refused and not created again")
        void deleted() throws SQLException {
            RangeStore store = store();
            store.acquire("orders", 10);
            sql("DELETE FROM cosid_ranges");
            assertThatThrownBy(() -> store.acquire("orders", 1))
                    .isInstanceOf(StoreCorruptedException.class)
                    .hasMessageContaining("deleted behind its back");
            assertThatThrownBy(() -> store.seal("orders"))
                    .isInstanceOf(StoreCorruptedException.class);
            assertThat(next("orders")).isEmpty();
        }

        @Test
        @DisplayName("deleted and inserted again, even higher: refused, untouched")
        void reinserted() throws SQLException {
            RangeStore store = store();
            store.acquire("orders", 10);
            sql("DELETE FROM cosid_ranges");
            sql(
                    "INSERT INTO cosid_ranges (key_hash, range_key, next_value, "
                            + Provenance.COLUMNS
                            + ") VALUES (sha256(convert_to('orders', 'UTF8')), 'orders', 50, "
                            + Provenance.values(Dialect.POSTGRESQL)
                            + ")");
            assertThatThrownBy(() -> store.acquire("orders", 1))
                    .isInstanceOf(StoreCorruptedException.class)
                    .hasMessageContaining("deleted and created again");
            assertThat(next("orders")).contains(50L);
        }

        @Test
        @DisplayName("a store opened afresh takes the row as it is then")
        void freshStore() throws SQLException {
            store().acquire("orders", 10);
            sql("UPDATE cosid_ranges SET next_value = 40");
            assertThat(store().acquire("orders", 1).start()).isEqualTo(40);
        }
    }

    @Test
    @DisplayName("bad input is refused before anything is sent; a closed store refuses calls")
    void refusals() {
        RangeStore store = store();
        assertThatThrownBy(() -> store.acquire("orders", 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store.acquire("a//b", 1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(store.list()).isEmpty();
        opened.forEach(Store::close);
        assertThatThrownBy(() -> store.acquire("orders", 1))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> TableNames.of(null, "ranges; DROP TABLE x"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lower-case letters, digits or underscores");
    }

    private void sql(String sql) throws SQLException {
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private Optional<Long> next(String key) throws SQLException {
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement();
                ResultSet r =
                        s.executeQuery(
                                "SELECT next_value FROM cosid_ranges WHERE range_key = '"
                                        + key
                                        + "'")) {
            return r.next() ? Optional.of(r.getLong(1)) : Optional.empty();
        }
    }
}
