package io.cosid.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.Stores;
import io.cosid.store.jdbc.harness.PostgresServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** What a store reads of a real server's settings at open ({@link ServerSafety}). */
@DisplayName("PostgreSQL settings a store checks at open")
class ServerSafetyTest {

    private static final String VERSION = System.getProperty("cosid.pg.version");

    @Test
    @DisplayName("PostgreSQL's defaults: nothing refused or warned of, the system identifier read")
    void defaults() throws SQLException {
        try (PostgresServer server = PostgresServer.start(VERSION);
                Connection c = server.connect("postgres")) {
            ServerSafety.Report report = ServerSafety.check(c);
            assertThat(report.refusals()).isEmpty();
            assertThat(report.warnings()).isEmpty();
            assertThat(DatabaseIdentity.of(c, Dialect.POSTGRESQL, false).known())
                    .matches("system [0-9]+, timeline [0-9A-F]{8}");
        }
    }

    @Test
    @DisplayName("fsync off and synchronous_commit off are refused, each naming its setting")
    void unsafeSettings() throws SQLException {
        try (PostgresServer server =
                        PostgresServer.start(VERSION, "fsync=off", "synchronous_commit=off");
                Connection c = server.connect("postgres")) {
            assertThat(ServerSafety.check(c).refusals())
                    .hasSize(2)
                    .anySatisfy(
                            r -> assertThat(r).startsWith("fsync is off").contains("fsync = on"))
                    .anySatisfy(
                            r ->
                                    assertThat(r)
                                            .startsWith("synchronous_commit is off")
                                            .contains("synchronous_commit = on"));
        }
    }

    @Test
    @DisplayName("full_page_writes off is refused like fsync off, naming it")
    void tornPagesRefused() throws SQLException {
        try (PostgresServer server = PostgresServer.start(VERSION, "full_page_writes=off");
                Connection c = server.connect("postgres")) {
            assertThat(ServerSafety.check(c).refusals())
                    .singleElement()
                    .asString()
                    .startsWith("full_page_writes is off")
                    .contains("full_page_writes = on");
        }
    }

    @Test
    @DisplayName(
            "a synchronous standby named while synchronous_commit is local or remote_write is"
                    + " warned of, and such writes are recorded as not replicated")
    void weakSynchronousCommitWarned() throws SQLException {
        try (PostgresServer server =
                        PostgresServer.start(VERSION, "synchronous_standby_names=standby");
                Connection c = server.connect("postgres");
                Statement s = c.createStatement()) {
            s.execute("SET synchronous_commit = local");
            assertThat(ServerSafety.check(c).warnings())
                    .singleElement()
                    .asString()
                    .contains("synchronous_commit is local")
                    .contains("before any standby has it")
                    .contains("\"Unsafe servers and topologies\"");
            assertThat(replicated(s)).as("local waits for no standby").isFalse();
            s.execute("SET synchronous_commit = remote_write");
            assertThat(ServerSafety.check(c).warnings())
                    .singleElement()
                    .asString()
                    .contains("synchronous_commit is remote_write")
                    .contains("before it flushed it");
            assertThat(replicated(s)).as("remote_write waits for no flush").isFalse();
            s.execute("SET synchronous_commit = remote_apply");
            assertThat(ServerSafety.check(c).warnings()).isEmpty();
            assertThat(replicated(s)).isTrue();
        }
    }

    /** What a write in this session would record as its replication. */
    private static boolean replicated(Statement s) throws SQLException {
        try (ResultSet r = s.executeQuery("SELECT " + Dialect.POSTGRESQL.replicated())) {
            r.next();
            return r.getBoolean(1);
        }
    }

    @Test
    @DisplayName("two servers initialised apart have different system identifiers")
    void systemIdentifier() throws SQLException {
        try (PostgresServer a = PostgresServer.start(VERSION);
                PostgresServer b = PostgresServer.start(System.getProperty("cosid.pg.oldest"));
                Connection ca = a.connect("postgres");
                Connection cb = b.connect("postgres")) {
            assertThat(system(ca)).isNotEqualTo(system(cb));
        }
    }

    @Test
    @DisplayName(
            "a role that may not read the system identifier: the store opens and watches the"
                    + " timeline alone")
    void systemIdentifierUnreadable() throws SQLException {
        try (PostgresServer server = PostgresServer.start(VERSION)) {
            String database = server.createDatabase();
            try (Connection c = server.connect(database);
                    Statement s = c.createStatement()) {
                s.execute("REVOKE EXECUTE ON FUNCTION pg_control_system() FROM PUBLIC");
                s.execute("CREATE ROLE app LOGIN");
                s.execute("GRANT CREATE ON SCHEMA public TO app");
            }
            String url = server.jdbcUrl(database).replace("user=postgres", "user=app");
            try (Connection c = DriverManager.getConnection(url)) {
                assertThat(DatabaseIdentity.of(c, Dialect.POSTGRESQL, false).known())
                        .matches("timeline [0-9A-F]{8}");
            }
            try (Store store =
                    Stores.open(
                            StoreConfig.of("app", JdbcStoreProvider.TYPE)
                                    .withOption("url", url)
                                    .withOption("schema", "create"))) {
                assertThat(store.ranges().acquire("orders", 10).end()).isEqualTo(10);
            }
        }
    }

    /** The system identifier part of the identity a store records. */
    private static String system(Connection c) throws SQLException {
        return DatabaseIdentity.of(c, Dialect.POSTGRESQL, false).known().replaceAll(",.*", "");
    }
}
