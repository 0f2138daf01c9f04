package io.cosid.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosid.store.jdbc.harness.PostgresServer;
import java.sql.Connection;
import java.sql.SQLException;
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
            assertThat(report.systemIdentifier()).isPresent();
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
    @DisplayName("two servers initialised apart have different system identifiers")
    void systemIdentifier() throws SQLException {
        try (PostgresServer a = PostgresServer.start(VERSION);
                PostgresServer b = PostgresServer.start(System.getProperty("cosid.pg.oldest"));
                Connection ca = a.connect("postgres");
                Connection cb = b.connect("postgres")) {
            assertThat(ServerSafety.check(ca).systemIdentifier())
                    .isNotEqualTo(ServerSafety.check(cb).systemIdentifier());
        }
    }
}
