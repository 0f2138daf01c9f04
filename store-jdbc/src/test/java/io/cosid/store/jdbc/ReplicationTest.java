package io.cosid.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cosid.store.Range;
import io.cosid.store.RangeState;
import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.StoreCorruptedException;
import io.cosid.store.StoreException;
import io.cosid.store.StoreUnavailableException;
import io.cosid.store.Stores;
import io.cosid.store.jdbc.harness.PostgresServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Properties;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A primary with a streaming standby, from the same binaries: the store refuses a standby at open,
 * warns of asynchronous standbys, and after an asynchronous failover that lost acknowledged writes
 * a store open across it refuses the promoted server (its timeline is new), while a store opened
 * afterwards cannot tell (why docs/reliability.md lists asynchronous promotion as unsafe).
 */
@DisplayName("A primary with a streaming standby (PostgreSQL)")
class ReplicationTest {

    private PostgresServer primary;
    private PostgresServer standby;

    @BeforeEach
    void start() {
        primary = PostgresServer.start(System.getProperty("cosid.pg.version"));
        standby = primary.startStandby();
    }

    @AfterEach
    void stop() throws Exception {
        standby.close();
        primary.close();
    }

    @Test
    @DisplayName("a store refuses to open on a standby, naming pg_is_in_recovery()")
    void standbyRefused() {
        assertThatThrownBy(
                        () ->
                                Stores.open(
                                        StoreConfig.of("s", JdbcStoreProvider.TYPE)
                                                .withOption("url", standby.jdbcUrl("postgres"))))
                .isInstanceOf(StoreException.class)
                .hasMessageContaining("pg_is_in_recovery() is true");
    }

    @Test
    @DisplayName("the primary's asynchronous standby is warned of, naming the setting")
    void asynchronousStandbyWarned() throws SQLException {
        Awaitility.await("the standby streaming")
                .atMost(Duration.ofMinutes(1))
                .until(() -> count(primary, "SELECT count(*) FROM pg_stat_replication") > 0);
        try (Connection c = primary.connect("postgres")) {
            assertThat(ServerSafety.check(c).warnings())
                    .singleElement()
                    .asString()
                    .contains("synchronous_standby_names is empty");
        }
    }

    @Test
    @DisplayName(
            "an asynchronous failover loses an acknowledged range: a store refuses the promoted"
                    + " server for every key, one that accepts failovers still refuses the key it"
                    + " saw go back, and a store opened afterwards cannot tell")
    void asynchronousFailover() throws Exception {
        String url = primary.jdbcUrl("postgres");
        try (ConnectionPool toPrimary = new ConnectionPool(url, new Properties(), 2, SECONDS);
                ConnectionPool toStandby =
                        new ConnectionPool(
                                standby.jdbcUrl("postgres"), new Properties(), 2, SECONDS)) {
            SwitchableDataSource address = new SwitchableDataSource(toPrimary);
            try (Store refusing =
                            JdbcStores.open(config().withOption("schema", "create"), address);
                    Store accepting =
                            JdbcStores.open(config().withOption("failover", "accept"), address)) {
                refusing.ranges().acquire("orders", 10);
                awaitReplayed();
                primary.pause(count(primary, "SELECT pid FROM pg_stat_replication"));
                assertThat(refusing.ranges().acquire("orders", 10))
                        .as("acknowledged by the primary alone")
                        .isEqualTo(new Range("orders", 10, 20));
                assertThat(accepting.ranges().peek("orders")).contains(new RangeState(20, false));
                primary.crash(); // its WAL sender never sent [10, 20)
                promote(standby);
                address.switchTo(toStandby); // the address now leads to the promoted standby
                Awaitility.await("the refusing store reaching the promoted standby")
                        .atMost(Duration.ofMinutes(1))
                        .untilAsserted(
                                () ->
                                        assertThatThrownBy(
                                                        () -> refusing.ranges().acquire("new", 1))
                                                .as("even a key it never saw")
                                                .isInstanceOf(StoreUnavailableException.class)
                                                .hasMessageContaining(
                                                        "the database changed since this store"
                                                                + " opened"));
                Awaitility.await("the accepting store reaching the promoted standby")
                        .atMost(Duration.ofMinutes(1))
                        .ignoreExceptionsInstanceOf(StoreUnavailableException.class)
                        .untilAsserted(
                                () ->
                                        assertThatThrownBy(
                                                        () ->
                                                                accepting
                                                                        .ranges()
                                                                        .acquire("orders", 1))
                                                .isInstanceOf(StoreCorruptedException.class)
                                                .hasMessageContaining("below 20"));
            }
            try (Store fresh = JdbcStores.open(config(), toStandby)) {
                assertThat(fresh.ranges().peek("orders"))
                        .as("the promoted standby never had [10, 20)")
                        .contains(new RangeState(10, false));
            }
        }
    }

    private static final Duration SECONDS = Duration.ofSeconds(5);

    private static StoreConfig config() {
        return StoreConfig.of("failover", JdbcStoreProvider.TYPE).withTimeout(SECONDS);
    }

    private void awaitReplayed() {
        Awaitility.await("the standby replaying everything the primary wrote")
                .atMost(Duration.ofMinutes(1))
                .until(
                        () ->
                                count(
                                                primary,
                                                "SELECT count(*) FROM pg_stat_replication WHERE"
                                                        + " replay_lsn >= pg_current_wal_lsn()")
                                        > 0);
    }

    private static void promote(PostgresServer server) throws SQLException {
        try (Connection c = server.connect("postgres");
                Statement s = c.createStatement()) {
            s.execute("SELECT pg_promote(true, 60)");
        }
        Awaitility.await("the standby promoted")
                .atMost(Duration.ofMinutes(1))
                .until(() -> count(server, "SELECT count(*) WHERE NOT pg_is_in_recovery()") == 1);
    }

    private static long count(PostgresServer server, String sql) throws SQLException {
        try (Connection c = server.connect("postgres");
                Statement s = c.createStatement();
                ResultSet r = s.executeQuery(sql)) {
            r.next();
            return r.getLong(1);
        }
    }
}
