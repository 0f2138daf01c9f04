package io.cosid.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cosid.store.RangeExhaustedException;
import io.cosid.store.RangeSealedException;
import io.cosid.store.StoreCorruptedException;
import io.cosid.store.jdbc.harness.PostgresServer;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The range table on a real PostgreSQL 18: one statement per acquire, disjoint ranges under
 * contention, and rows changed behind the store's back refused and left as they are.
 */
@DisplayName("The PostgreSQL range table")
class RangeTableTest {

    private static PostgresServer server;
    private static final RangeTable TABLE = new RangeTable("cosid_ranges");

    private String database;

    @BeforeAll
    static void start() {
        server = PostgresServer.start(System.getProperty("cosid.pg.version"));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @BeforeEach
    void freshDatabase() throws SQLException {
        database = server.createDatabase();
        try (Connection c = server.connect(database)) {
            TABLE.create(c);
        }
    }

    @Test
    @DisplayName("the first acquire creates the row; the next ones follow it, each remembering it")
    void firstAndNext() throws SQLException {
        try (Connection c = server.connect(database)) {
            RangeTable.Granted first = TABLE.acquire(c, "orders", 10, null);
            assertThat(first.start()).isZero();
            assertThat(first.end()).isEqualTo(10);
            RangeTable.Granted second = TABLE.acquire(c, "orders", 5, first.mark());
            assertThat(second.start()).isEqualTo(10);
            assertThat(second.end()).isEqualTo(15);
            assertThat(second.mark()).isEqualTo(new RangeMark(first.mark().incarnation(), 15));
        }
    }

    @Test
    @DisplayName("8 connections acquiring at once get disjoint ranges that leave no gap")
    void contention() throws Exception {
        int clients = 8;
        int each = 100;
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        List<Future<List<long[]>>> futures = new ArrayList<>();
        try {
            for (int t = 0; t < clients; t++) {
                futures.add(
                        pool.submit(
                                () -> {
                                    List<long[]> got = new ArrayList<>();
                                    try (Connection c = server.connect(database)) {
                                        RangeMark mark = null;
                                        for (int i = 0; i < each; i++) {
                                            RangeTable.Granted g = TABLE.acquire(c, "hot", 3, mark);
                                            mark = g.mark();
                                            got.add(new long[] {g.start(), g.end()});
                                        }
                                    }
                                    return got;
                                }));
            }
            List<long[]> all = new ArrayList<>();
            for (Future<List<long[]>> f : futures) {
                all.addAll(f.get());
            }
            all.sort((a, b) -> Long.compare(a[0], b[0]));
            for (int i = 0; i < all.size(); i++) {
                assertThat(all.get(i)[0]).as("range %d's start", i).isEqualTo(3L * i);
                assertThat(all.get(i)[1]).as("range %d's end", i).isEqualTo(3L * i + 3);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    @DisplayName("a sealed key is refused with its final value, and stays as it is")
    void sealed() throws SQLException {
        try (Connection c = server.connect(database)) {
            RangeTable.Granted g = TABLE.acquire(c, "orders", 10, null);
            sql(c, "UPDATE cosid_ranges SET sealed = true WHERE range_key = 'orders'");
            assertThatThrownBy(() -> TABLE.acquire(c, "orders", 1, g.mark()))
                    .isInstanceOf(RangeSealedException.class)
                    .hasMessageContaining("10");
            assertThatThrownBy(() -> TABLE.acquire(c, "orders", 1, null))
                    .isInstanceOf(RangeSealedException.class);
            assertThat(next(c, "orders")).isEqualTo(10);
        }
    }

    @Test
    @DisplayName("a row lowered by hand is refused, naming the value to raise it to, untouched")
    void lowered() throws SQLException {
        try (Connection c = server.connect(database)) {
            RangeTable.Granted g = TABLE.acquire(c, "orders", 10, null);
            sql(c, "UPDATE cosid_ranges SET next_value = 4 WHERE range_key = 'orders'");
            assertThatThrownBy(() -> TABLE.acquire(c, "orders", 1, g.mark()))
                    .isInstanceOf(StoreCorruptedException.class)
                    .hasMessageContaining("below 10")
                    .hasMessageContaining("nothing was written");
            assertThat(next(c, "orders")).isEqualTo(4);
        }
    }

    @Test
    @DisplayName("a row deleted by hand is refused and not created again")
    void deleted() throws SQLException {
        try (Connection c = server.connect(database)) {
            RangeTable.Granted g = TABLE.acquire(c, "orders", 10, null);
            sql(c, "DELETE FROM cosid_ranges WHERE range_key = 'orders'");
            assertThatThrownBy(() -> TABLE.acquire(c, "orders", 1, g.mark()))
                    .isInstanceOf(StoreCorruptedException.class)
                    .hasMessageContaining("gone");
            assertThat(count(c)).isZero();
        }
    }

    @Test
    @DisplayName("a row deleted and inserted again by hand, even higher, is refused untouched")
    void reinserted() throws SQLException {
        try (Connection c = server.connect(database)) {
            RangeTable.Granted g = TABLE.acquire(c, "orders", 10, null);
            sql(c, "DELETE FROM cosid_ranges WHERE range_key = 'orders'");
            sql(c, "INSERT INTO cosid_ranges (range_key, next_value) VALUES ('orders', 50)");
            assertThatThrownBy(() -> TABLE.acquire(c, "orders", 1, g.mark()))
                    .isInstanceOf(StoreCorruptedException.class)
                    .hasMessageContaining("inserted again");
            assertThat(next(c, "orders")).isEqualTo(50);
        }
    }

    @Test
    @DisplayName("a key that cannot grow by the size asked is exhausted, untouched")
    void exhausted() throws SQLException {
        try (Connection c = server.connect(database)) {
            TABLE.acquire(c, "orders", Long.MAX_VALUE - 5, null);
            assertThatThrownBy(() -> TABLE.acquire(c, "orders", 10, null))
                    .isInstanceOf(RangeExhaustedException.class);
            assertThat(next(c, "orders")).isEqualTo(Long.MAX_VALUE - 5);
        }
    }

    @Test
    @DisplayName("a table name that is not a plain identifier is refused, naming what is allowed")
    void tableName() {
        assertThatThrownBy(() -> new RangeTable("ranges; DROP TABLE x"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lower-case letters, digits or underscores");
    }

    private static void sql(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private static long next(Connection c, String key) throws SQLException {
        try (Statement s = c.createStatement();
                var r =
                        s.executeQuery(
                                "SELECT next_value FROM cosid_ranges WHERE range_key = '"
                                        + key
                                        + "'")) {
            assertThat(r.next()).isTrue();
            return r.getLong(1);
        }
    }

    private static long count(Connection c) throws SQLException {
        try (Statement s = c.createStatement();
                var r = s.executeQuery("SELECT count(*) FROM cosid_ranges")) {
            assertThat(r.next()).isTrue();
            return r.getLong(1);
        }
    }
}
