package io.cosid.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosid.store.jdbc.harness.PostgresServer;
import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The PostgreSQL servers the JDBC backend's tests run on: started from Maven artifacts, as a
 * non-root user when the build runs as root, with PostgreSQL's durable defaults.
 */
@DisplayName("PostgreSQL test servers")
class PostgresServerTest {

    @Test
    @DisplayName(
            "the newest version starts, answers on its own database, with fsync and commits on")
    void newest() throws SQLException {
        try (PostgresServer server = PostgresServer.start(System.getProperty("cosid.pg.version"))) {
            String db = server.createDatabase();
            try (Connection c = server.connect(db);
                    Statement s = c.createStatement()) {
                assertThat(one(s, "SELECT current_database()")).isEqualTo(db);
                assertThat(one(s, "SHOW server_version")).startsWith("18.");
                assertThat(one(s, "SHOW fsync")).isEqualTo("on");
                assertThat(one(s, "SHOW synchronous_commit")).isEqualTo("on");
                assertThat(one(s, "SELECT pg_is_in_recovery()")).isEqualTo("f");
                assertThat(one(s, "SELECT current_setting('data_directory') IS NOT NULL"))
                        .isEqualTo("t");
            }
            assertThat(server.createDatabase()).as("a second database").isNotEqualTo(db);
        }
    }

    @Test
    @DisplayName("the oldest version starts too")
    void oldest() throws SQLException {
        try (PostgresServer server = PostgresServer.start(System.getProperty("cosid.pg.oldest"));
                Connection c = server.connect(server.createDatabase());
                Statement s = c.createStatement()) {
            assertThat(one(s, "SHOW server_version")).startsWith("14.");
        }
    }

    @Test
    @DisplayName("as root, the server runs as an unprivileged user (PostgreSQL refuses root)")
    void notRoot() throws IOException {
        try (PostgresServer server = PostgresServer.start(System.getProperty("cosid.pg.version"))) {
            String user = System.getProperty("user.name");
            assertThat(server.osUser()).isEqualTo(user.equals("root") ? "nobody" : user);
        }
    }

    private static String one(Statement s, String sql) throws SQLException {
        try (ResultSet r = s.executeQuery(sql)) {
            assertThat(r.next()).as(sql).isTrue();
            return r.getString(1);
        }
    }
}
