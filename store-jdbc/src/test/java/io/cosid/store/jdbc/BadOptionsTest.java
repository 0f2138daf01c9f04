package io.cosid.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cosid.store.StoreConfig;
import io.cosid.store.StoreException;
import io.cosid.store.Stores;
import io.cosid.store.jdbc.harness.PostgresExtension;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Options that cannot work are refused at open with one line naming the cause, and nothing is
 * written: no table created, no row.
 */
@DisplayName("Bad options are refused at open, in one line, writing nothing")
class BadOptionsTest {

    @RegisterExtension static final PostgresExtension SERVER = PostgresExtension.newest();

    private static final String ROLE = "cosid_app";
    private static final String PASSWORD = "right-password";

    @BeforeAll
    static void passwordRole() throws Exception {
        SERVER.server().requirePassword(ROLE, PASSWORD);
    }

    private static StoreConfig config() {
        return StoreConfig.of("bad", JdbcStoreProvider.TYPE).withOption("url", SERVER.jdbcUrl());
    }

    @Test
    @DisplayName("an unknown dialect names the option and the dialects known")
    void unknownDialect() {
        assertOneLine(
                () -> Stores.open(config().withOption("dialect", "oracle")),
                IllegalArgumentException.class,
                "cosid.stores.bad.options.dialect must be postgresql or mysql, got 'oracle'");
    }

    @Test
    @DisplayName("a URL that is not a JDBC URL names the option")
    void notJdbcUrl() {
        assertOneLine(
                () ->
                        Stores.open(
                                StoreConfig.of("bad", JdbcStoreProvider.TYPE)
                                        .withOption("url", "postgresql://localhost/db")),
                IllegalArgumentException.class,
                "cosid.stores.bad.options.url must be a JDBC URL");
    }

    @Test
    @DisplayName("a server nobody listens on names the address")
    void nobodyListens() {
        assertOneLine(
                () ->
                        Stores.open(
                                StoreConfig.of("bad", JdbcStoreProvider.TYPE)
                                        .withOption("url", "jdbc:postgresql://127.0.0.1:1/db")),
                StoreException.class,
                "127.0.0.1:1");
    }

    @Test
    @DisplayName("a wrong password names the failed authentication")
    void wrongPassword() {
        String url = SERVER.jdbcUrl().replace("user=postgres", "user=" + ROLE);
        assertOneLine(
                () ->
                        Stores.open(
                                StoreConfig.of("bad", JdbcStoreProvider.TYPE)
                                        .withOption("url", url)
                                        .withOption("password", "wrong")),
                StoreException.class,
                "password authentication failed for user \"" + ROLE + "\"");
    }

    @Test
    @DisplayName("the right password opens; the schema option creates the tables")
    void rightPassword() throws SQLException {
        String url = SERVER.jdbcUrl().replace("user=postgres", "user=" + ROLE);
        try (var store =
                Stores.open(
                        StoreConfig.of("good", JdbcStoreProvider.TYPE)
                                .withOption("url", url)
                                .withOption("username", ROLE)
                                .withOption("password", PASSWORD)
                                .withOption("tablePrefix", "pw_")
                                .withOption("schema", "create"))) {
            assertThat(store.ranges().acquire("orders", 3).end()).isEqualTo(3);
        }
        assertThat(tables("pw_%")).isEqualTo(4);
    }

    @Test
    @DisplayName("missing tables under schema: validate name the table and the way to create it")
    void missingTable() throws SQLException {
        assertOneLine(
                () -> Stores.open(config().withOption("tablePrefix", "absent_")),
                StoreException.class,
                "table absent_ranges is missing; create it from cosid-store/schema/postgresql.sql");
        assertThat(tables("absent_%")).isZero();
    }

    @Test
    @DisplayName("a table missing a column names the column")
    void missingColumn() throws SQLException {
        try (var store =
                Stores.open(
                        config().withOption("tablePrefix", "old_")
                                .withOption("schema", "create"))) {
            store.ranges().acquire("orders", 1);
        }
        sql("ALTER TABLE old_slots DROP COLUMN nonce");
        assertOneLine(
                () -> Stores.open(config().withOption("tablePrefix", "old_")),
                StoreException.class,
                "table old_slots has no column nonce");
    }

    @Test
    @DisplayName("an unknown option, a bad prefix and a bad schema mode name their option")
    void malformedOptions() {
        assertOneLine(
                () -> Stores.open(config().withOption("tabel", "x")),
                IllegalArgumentException.class,
                "cosid.stores.bad.options.tabel is not an option of store type 'jdbc'");
        assertOneLine(
                () -> Stores.open(config().withOption("tablePrefix", "Drop Table")),
                IllegalArgumentException.class,
                "tablePrefix 'Drop Table' must be 1 to 40 lower-case letters");
        assertOneLine(
                () -> Stores.open(config().withOption("schema", "update")),
                IllegalArgumentException.class,
                "cosid.stores.bad.options.schema must be validate or create, got 'update'");
    }

    private static void assertOneLine(
            ThrowingCallable open, Class<? extends Throwable> type, String names) {
        assertThatThrownBy(open)
                .isInstanceOf(type)
                .hasMessageContaining(names)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }

    private static int tables(String like) throws SQLException {
        try (Connection c = DriverManager.getConnection(SERVER.jdbcUrl());
                Statement s = c.createStatement();
                ResultSet r =
                        s.executeQuery(
                                "SELECT count(*) FROM information_schema.tables WHERE table_name"
                                        + " LIKE '"
                                        + like
                                        + "'")) {
            r.next();
            return r.getInt(1);
        }
    }

    private static void sql(String statement) throws SQLException {
        try (Connection c = DriverManager.getConnection(SERVER.jdbcUrl());
                Statement s = c.createStatement()) {
            s.execute(statement);
        }
    }
}
