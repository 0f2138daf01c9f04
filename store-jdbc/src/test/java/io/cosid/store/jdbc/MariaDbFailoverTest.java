package io.cosid.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cosid.store.Range;
import io.cosid.store.SlotLease;
import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.StoreCorruptedException;
import io.cosid.store.Stores;
import io.cosid.store.jdbc.harness.MariaDbServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * What MySQL and MariaDB can tell after a failover: rows carry the {@code server_id} they were
 * written on, and on another server (a promoted replica, which must have a {@code server_id} of its
 * own) every row written elsewhere is refused until {@link AfterFailover} moves it past the loss.
 * The server's {@code server_id} is changed in place here, which is what a store sees of a replica
 * promoted with the primary's data.
 */
@DisplayName("MariaDB: rows written on another server_id are refused until after-failover")
class MariaDbFailoverTest {

    @BeforeAll
    static void installed() {
        MariaDbServer.assumeInstalled();
    }

    @Test
    @DisplayName(
            "keys and slots written on server_id 1 are refused on server_id 2, naming both, and"
                    + " accepted once moved")
    void anotherServer() throws Exception {
        Duration ttl = Duration.ofMinutes(1);
        try (MariaDbServer server = MariaDbServer.start()) {
            String url = server.jdbcUrl(server.createDatabase());
            StoreConfig config =
                    StoreConfig.of("moved", JdbcStoreProvider.TYPE).withOption("url", url);
            SlotLease held;
            try (Store store = Stores.open(config.withOption("schema", "create"))) {
                store.ranges().acquire("orders", 100);
                store.slots().define("workers", 2, Duration.ZERO);
                held = store.slots().acquire("workers", "host-1", ttl);
            }
            try (Connection c = DriverManager.getConnection(url);
                    Statement s = c.createStatement()) {
                s.execute("SET GLOBAL server_id = 2");
            }
            try (Store store = Stores.open(config)) {
                assertThatThrownBy(() -> store.ranges().acquire("orders", 1))
                        .isInstanceOf(StoreCorruptedException.class)
                        .hasMessageContaining(
                                "last written under server_id 1 without synchronous replication,"
                                        + " and the database is on server_id 2 now");
                assertThatThrownBy(() -> store.slots().acquire("workers", "host-2", ttl))
                        .isInstanceOf(StoreCorruptedException.class)
                        .hasMessageContaining("server_id 1");
                assertThat(store.ranges().acquire("new", 3)).isEqualTo(new Range("new", 0, 3));

                Instant from = held.ceiling().plus(ttl);
                AfterFailover.Report report = AfterFailover.run(config, 500, from, false);
                assertThat(report.origin()).isEqualTo("server_id 2");
                assertThat(report.keys()).singleElement().asString().contains("next 100 -> 600");
                assertThat(report.slots()).hasSize(2);

                assertThat(store.ranges().acquire("orders", 1))
                        .isEqualTo(new Range("orders", 600, 601));
                SlotLease next = store.slots().acquire("workers", "host-1", ttl);
                assertThat(next.fence()).isGreaterThan(held.fence() + 500);
                assertThat(next.floor()).isEqualTo(from);
            }
        }
    }
}
