package io.cosid.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cosid.store.Range;
import io.cosid.store.RangeState;
import io.cosid.store.SlotLease;
import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.StoreCorruptedException;
import io.cosid.store.StoreException;
import io.cosid.store.StoreUnavailableException;
import io.cosid.store.Stores;
import io.cosid.store.jdbc.harness.PgBouncer;
import io.cosid.store.jdbc.harness.PostgresServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.Properties;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A primary with a streaming standby, from the same binaries: the store refuses a standby at open,
 * warns of asynchronous standbys, and after an asynchronous failover that lost acknowledged writes
 * every store refuses the keys and slots written before it, until {@link AfterFailover} moves them
 * past the loss.
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
            "an asynchronous failover loses an acknowledged range and term: a store open across it"
                    + " refuses the promoted server, one that accepts failovers and one opened"
                    + " afterwards refuse every key and slot written before it, naming the"
                    + " timelines, until after-failover moves them past the loss")
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
                refusing.slots().define("workers", 4, Duration.ZERO);
                SlotLease first = refusing.slots().acquire("workers", "a", TTL);
                awaitReplayed();
                primary.pause(count(primary, "SELECT pid FROM pg_stat_replication"));
                assertThat(refusing.ranges().acquire("orders", 10))
                        .as("acknowledged by the primary alone")
                        .isEqualTo(new Range("orders", 10, 20));
                SlotLease lost = refusing.slots().acquire("workers", "b", TTL);
                assertThat(accepting.ranges().peek("orders")).contains(new RangeState(20, false));
                primary.crash(); // its WAL sender never sent [10, 20) nor b's term
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
                                                .hasMessageContaining(LOST));
                Store fresh = JdbcStores.open(config(), toStandby);
                assertThatThrownBy(() -> fresh.ranges().acquire("orders", 1))
                        .as("the promoted standby never had [10, 20)")
                        .isInstanceOf(StoreCorruptedException.class)
                        .hasMessageContaining(LOST)
                        .hasMessageNotContaining("\n");
                assertThatThrownBy(() -> fresh.slots().acquire("workers", "c", TTL))
                        .isInstanceOf(StoreCorruptedException.class)
                        .hasMessageContaining(LOST);
                assertThat(fresh.ranges().acquire("new", 5))
                        .as("a key first written after the promotion is sure")
                        .isEqualTo(new Range("new", 0, 5));

                StoreConfig promoted = config().withOption("url", standby.jdbcUrl("postgres"));
                AfterFailover.Report dry = AfterFailover.run(promoted, 1_000, null, true);
                assertThat(dry.applied()).isFalse();
                assertThat(dry.origin()).isEqualTo("timeline 2");
                assertThat(dry.keys())
                        .singleElement()
                        .asString()
                        .contains("'orders': next 10 -> 1010", "timeline 1");
                assertThat(dry.slots()).hasSize(4).first().asString().contains("fence 1 -> 1001");
                assertThat(dry.highestCeiling()).isEqualTo(first.ceiling());
                assertThatThrownBy(() -> fresh.ranges().acquire("orders", 1))
                        .as("the dry run changed nothing")
                        .hasMessageContaining(LOST);
                assertThatThrownBy(() -> AfterFailover.run(promoted, 1_000, null, false))
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining("slots-from")
                        .hasMessageContaining("Nothing was written");

                Instant from = lost.ceiling().plus(TTL);
                AfterFailover.Report done = AfterFailover.run(promoted, 1_000, from, false);
                assertThat(done.applied()).isTrue();
                assertThat(done.keys()).hasSize(1);
                assertThat(fresh.ranges().acquire("orders", 10))
                        .as("past every value the lost primary handed out")
                        .isEqualTo(new Range("orders", 1010, 1020));
                assertThat(accepting.ranges().acquire("orders", 10).start()).isEqualTo(1020);
                SlotLease next = fresh.slots().acquire("workers", "a", TTL);
                assertThat(next.fence()).isGreaterThan(lost.fence());
                assertThat(next.floor()).isAfterOrEqualTo(lost.ceiling()).isEqualTo(from);
                assertThat(AfterFailover.run(promoted, 1_000, from, false).keys())
                        .as("a second run finds nothing to move")
                        .isEmpty();
                fresh.close();
            }
        }
    }

    @Test
    @DisplayName(
            "a synchronous failover loses nothing: a store opened on the promoted standby takes"
                    + " every key and slot as it is, with no after-failover")
    void synchronousFailover() throws Exception {
        Awaitility.await("the standby streaming")
                .atMost(Duration.ofMinutes(1))
                .until(() -> count(primary, "SELECT count(*) FROM pg_stat_replication") > 0);
        try (Connection c = primary.connect("postgres");
                Statement s = c.createStatement()) {
            s.execute("ALTER SYSTEM SET synchronous_standby_names = '*'");
            s.execute("SELECT pg_reload_conf()");
        }
        Awaitility.await("the standby synchronous")
                .atMost(Duration.ofMinutes(1))
                .until(
                        () ->
                                count(
                                                primary,
                                                "SELECT count(*) FROM pg_stat_replication"
                                                        + " WHERE sync_state = 'sync'")
                                        > 0);
        SlotLease held;
        try (Store store =
                JdbcStores.open(
                        config().withOption("url", primary.jdbcUrl("postgres"))
                                .withOption("schema", "create"))) {
            assertThat(store.ranges().acquire("orders", 10).end()).isEqualTo(10);
            store.slots().define("workers", 2, Duration.ZERO);
            held = store.slots().acquire("workers", "a", TTL);
            assertThat(store.ranges().acquire("orders", 10).end())
                    .as("acknowledged once the standby flushed it")
                    .isEqualTo(20);
        }
        primary.crash();
        promote(standby);
        try (Store fresh =
                JdbcStores.open(config().withOption("url", standby.jdbcUrl("postgres")))) {
            assertThat(fresh.ranges().acquire("orders", 10)).isEqualTo(new Range("orders", 20, 30));
            SlotLease renewed = fresh.slots().renew(held);
            assertThat(renewed.fence()).isEqualTo(held.fence());
        }
    }

    @Test
    @DisplayName(
            "through PgBouncer repointed after an asynchronous failover the client's connections"
                    + " stay, so a store open across it sees the failover in the rows: every key"
                    + " and slot written before it is refused, naming the timelines")
    void throughPgBouncer() throws Exception {
        Assumptions.assumeTrue(
                PgBouncer.installed(),
                "PgBouncer is not installed (Debian package pgbouncer; .ci/run installs it)");
        try (PgBouncer bouncer = PgBouncer.start(primary, "postgres", 2);
                Store store =
                        JdbcStores.open(
                                config().withOption("url", bouncer.jdbcUrl())
                                        .withOption("poolSize", "1")
                                        .withOption("schema", "create"))) {
            store.ranges().acquire("orders", 10);
            awaitReplayed();
            primary.pause(count(primary, "SELECT pid FROM pg_stat_replication"));
            assertThat(store.ranges().acquire("orders", 10)).isEqualTo(new Range("orders", 10, 20));
            primary.crash();
            promote(standby);
            bouncer.repoint(standby);
            Awaitility.await("the store reaching the promoted standby through PgBouncer")
                    .atMost(Duration.ofMinutes(1))
                    .ignoreExceptionsInstanceOf(StoreUnavailableException.class)
                    .untilAsserted(
                            () ->
                                    assertThatThrownBy(() -> store.ranges().acquire("orders", 1))
                                            .isInstanceOf(StoreCorruptedException.class)
                                            .hasMessageContaining(LOST));
        }
    }

    /** What a store says of a row written before a lossy promotion. */
    private static final String LOST =
            "last written under timeline 1 without synchronous replication, and the database is"
                    + " on timeline 2 now";

    private static final Duration TTL = Duration.ofSeconds(30);

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
