package io.cosid.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cosid.store.jdbc.harness.PostgresExtension;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Properties;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.postgresql.PGConnection;

@DisplayName("The store's own connection pool")
class ConnectionPoolTest {

    @RegisterExtension static final PostgresExtension SERVER = PostgresExtension.newest();

    private static ConnectionPool pool(int size) {
        return new ConnectionPool(SERVER.jdbcUrl(), new Properties(), size, Duration.ofSeconds(2));
    }

    @Test
    @DisplayName("a handle closed once refuses every later call: its connection is another's now")
    void closedHandleRefuses() throws SQLException {
        try (ConnectionPool pool = pool(1)) {
            Connection first = pool.getConnection();
            first.close();
            try (Connection second = pool.getConnection()) {
                assertThat(first.isClosed()).isTrue();
                assertThatThrownBy(first::createStatement)
                        .isInstanceOf(SQLException.class)
                        .hasMessageContaining("handle was closed");
                first.close(); // a second close gives nothing back twice
                try (Statement s = second.createStatement()) {
                    assertThat(s.execute("SELECT 1")).isTrue();
                }
            }
        }
    }

    @Test
    @DisplayName("keeps a connection given back for the next caller, and waits no longer than set")
    void reusesAndBoundsTheWait() throws SQLException {
        try (ConnectionPool pool = pool(1)) {
            int backend;
            try (Connection c = pool.getConnection()) {
                backend = c.unwrap(PGConnection.class).getBackendPID();
            }
            try (Connection c = pool.getConnection()) {
                assertThat(c.unwrap(PGConnection.class).getBackendPID())
                        .as("the same server connection, kept idle")
                        .isEqualTo(backend);
                assertThatThrownBy(pool::getConnection)
                        .isInstanceOf(SQLTransientConnectionException.class)
                        .hasMessageContaining("no pooled connection came free within PT2S");
            }
        }
    }
}
