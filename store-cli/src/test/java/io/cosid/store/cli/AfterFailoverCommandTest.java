package io.cosid.store.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cosid.store.Range;
import io.cosid.store.SlotLease;
import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.StoreCorruptedException;
import io.cosid.store.Stores;
import io.cosid.store.jdbc.harness.PostgresExtension;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code after-failover} on a real PostgreSQL whose rows read as written under an earlier timeline
 * without synchronous replication, as after an asynchronous promotion (store-jdbc's {@code
 * ReplicationTest} makes a real one; here the rows' origin is set by hand, which is quicker).
 */
@DisplayName("cosid-store after-failover (PostgreSQL)")
class AfterFailoverCommandTest {

    @RegisterExtension static final PostgresExtension POSTGRES = PostgresExtension.newest();

    private static final Duration TTL = Duration.ofMinutes(1);

    @Test
    @DisplayName(
            "a dry run lists what would move and changes nothing; a run without --slots-from is"
                    + " refused; a run moves keys and slots past the loss; a second finds nothing")
    void movesPastTheLoss() throws SQLException {
        String url = POSTGRES.jdbcUrl();
        SlotLease held;
        try (Store store = open(url, "setup", true)) {
            store.ranges().acquire("orders", 100);
            store.ranges().acquire("done", 5);
            store.ranges().seal("done");
            store.slots().define("workers", 2, Duration.ZERO);
            held = store.slots().acquire("workers", "host-1", TTL);
        }
        sql(url, "UPDATE cosid_ranges SET written_origin = 0");
        sql(url, "UPDATE cosid_slots SET written_origin = 0");
        try (Store store = open(url, "before", false)) {
            assertThatThrownBy(() -> store.ranges().acquire("orders", 1))
                    .isInstanceOf(StoreCorruptedException.class)
                    .hasMessageContaining("last written under timeline 0")
                    .hasMessageContaining("cosid-store after-failover");
        }

        Cli.Result dry =
                Cli.run("after-failover", "--margin", "1000", "--dry-run", "--jdbc-url", url);
        assertThat(dry.code()).as(dry.toString()).isZero();
        assertThat(dry.out())
                .contains("would move (dry run, nothing changed) 2 key(s) and 2 slot(s)")
                .contains("'orders': next 100 -> 1100")
                .contains("'done': next 5 -> 5 (sealed)")
                .contains("term of 'host-1' ended")
                .contains("highest ceiling the slots' rows show: " + held.ceiling());

        Cli.Result noFrom = Cli.run("after-failover", "--margin", "1000", "--jdbc-url", url);
        assertThat(noFrom.code()).as(noFrom.toString()).isEqualTo(2);
        assertThat(noFrom.err()).contains("slots-from").contains("Nothing was written");
        try (Store store = open(url, "between", false)) {
            assertThatThrownBy(() -> store.ranges().acquire("orders", 1))
                    .as("neither the dry run nor the refused run changed anything")
                    .isInstanceOf(StoreCorruptedException.class);
        }

        Instant from = held.ceiling().plus(TTL);
        Cli.Result run = moveFrom(from, url);
        assertThat(run.code()).as(run.toString()).isZero();
        assertThat(run.out()).startsWith("moved 2 key(s) and 2 slot(s)");
        try (Store store = open(url, "after", false)) {
            assertThat(store.ranges().acquire("orders", 1))
                    .isEqualTo(new Range("orders", 1100, 1101));
            SlotLease next = store.slots().acquire("workers", "host-1", TTL);
            assertThat(next.slot()).isEqualTo(held.slot());
            assertThat(next.fence()).isGreaterThan(held.fence() + 1000);
            assertThat(next.floor()).isEqualTo(from);
        }
        Cli.Result again = moveFrom(from, url, "--json");
        assertThat(again.code()).as(again.toString()).isZero();
        assertThat(again.out()).contains("\"keys\":[]").contains("\"applied\":true");
    }

    @Test
    @DisplayName("bad input is refused in one line: a negative margin, an unparsable instant")
    void badInput() {
        Cli.Result negative =
                Cli.run("after-failover", "--margin", "-1", "--jdbc-url", POSTGRES.jdbcUrl());
        assertThat(negative.code()).isEqualTo(2);
        assertThat(negative.err()).contains("margin must be 0 or more, got -1");
        Cli.Result instant =
                Cli.run(
                        "after-failover",
                        "--margin",
                        "1",
                        "--slots-from",
                        "yesterday",
                        "--jdbc-url",
                        POSTGRES.jdbcUrl());
        assertThat(instant.code()).isEqualTo(2);
        assertThat(instant.err()).contains("--slots-from must be an instant");
    }

    @Test
    @DisplayName("a ZooKeeper store is refused: its writes are acknowledged by a quorum")
    void zooKeeperRefused() {
        Cli.Result r = Cli.run("after-failover", "--margin", "1", "--connect", "127.0.0.1:1");
        assertThat(r.code()).isEqualTo(3);
        assertThat(r.err()).contains("after-failover is for JDBC stores");
    }

    /** after-failover with a margin of 1000 and slots from {@code from}. */
    private static Cli.Result moveFrom(Instant from, String url, String... more) {
        List<String> args =
                new ArrayList<>(
                        List.of(
                                "after-failover",
                                "--margin",
                                "1000",
                                "--slots-from",
                                from.toString(),
                                "--jdbc-url",
                                url));
        args.addAll(List.of(more));
        return Cli.run(args.toArray(String[]::new));
    }

    private static Store open(String url, String name, boolean create) {
        StoreConfig c = StoreConfig.of(name, "jdbc").withOption("url", url);
        return Stores.open(create ? c.withOption("schema", "create") : c);
    }

    private static void sql(String url, String statement) throws SQLException {
        try (Connection c = DriverManager.getConnection(url);
                Statement s = c.createStatement()) {
            s.execute(statement);
        }
    }
}
