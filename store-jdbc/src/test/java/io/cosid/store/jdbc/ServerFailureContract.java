package io.cosid.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cosid.store.LeaseLostException;
import io.cosid.store.Range;
import io.cosid.store.SlotLease;
import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.StoreException;
import io.cosid.store.StoreTimeoutException;
import io.cosid.store.Stores;
import io.cosid.store.jdbc.harness.FaultableServer;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A real server of the test class's own paused (SIGSTOP), killed and restarted, and rows locked by
 * hand: every call still ends within the store's timeout, and no value or term is handed out twice.
 * One short class per server.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ServerFailureContract {

    private static final Duration TIMEOUT = Duration.ofSeconds(1);

    private FaultableServer server;

    private final List<Store> opened = new ArrayList<>();
    private String url;

    /** Starts the class's own server. */
    abstract FaultableServer startServer();

    @BeforeAll
    void start() {
        server = startServer();
    }

    @AfterAll
    void stop() throws Exception {
        if (server == null) {
            return; // skipped: no such server here
        }
        server.resume();
        server.close();
    }

    @BeforeEach
    void database() {
        url = server.jdbcUrl(server.createDatabase());
    }

    @AfterEach
    void closeStores() {
        opened.forEach(Store::close);
    }

    private Store store(String... options) {
        StoreConfig config =
                StoreConfig.of("failing", JdbcStoreProvider.TYPE)
                        .withTimeout(TIMEOUT)
                        .withOption("url", url)
                        .withOption("schema", "create");
        for (int i = 0; i < options.length; i += 2) {
            config = config.withOption(options[i], options[i + 1]);
        }
        Store store = Stores.open(config);
        opened.add(store);
        return store;
    }

    @Test
    @DisplayName(
            "a server paused past a lease's ttl: calls time out, and after it goes on the slot"
                    + " passes to another owner only after expiry, above the old window")
    void pausedPastTtl() throws Exception {
        Store store = store();
        store.slots().define("workers", 1, Duration.ofMillis(100));
        SlotLease lease = store.slots().acquire("workers", "a", Duration.ofSeconds(2));
        server.pause();
        try {
            assertThatThrownBy(() -> store.slots().renew(lease))
                    .isInstanceOf(StoreTimeoutException.class);
            assertThatThrownBy(() -> store.ranges().acquire("orders", 1))
                    .isInstanceOf(StoreTimeoutException.class);
        } finally {
            server.resume();
        }
        Store other = store();
        SlotLease next =
                Awaitility.await("the slot free by the server's clock")
                        .atMost(Duration.ofMinutes(1))
                        .ignoreExceptionsInstanceOf(StoreException.class)
                        .until(
                                () -> other.slots().acquire("workers", "b", Duration.ofSeconds(2)),
                                l -> l != null);
        assertThat(next.fence()).isEqualTo(lease.fence() + 1);
        assertThat(next.floor()).isAfterOrEqualTo(lease.ceiling());
        assertThatThrownBy(() -> store.slots().renew(lease)).isInstanceOf(LeaseLostException.class);
    }

    @Test
    @DisplayName(
            "a server killed and restarted keeps what was committed: ranges go on above it, terms"
                    + " above the last fence")
    void crashAndRestart() throws Exception {
        Store store = store();
        store.slots().define("workers", 1, Duration.ZERO);
        Range before = store.ranges().acquire("orders", 100);
        SlotLease lease = store.slots().acquire("workers", "a", Duration.ofMillis(500));
        server.crash();
        server.restart();
        Range after =
                Awaitility.await("the store serving again")
                        .atMost(Duration.ofMinutes(1))
                        .ignoreExceptionsInstanceOf(StoreException.class)
                        .until(() -> store.ranges().acquire("orders", 100), r -> r != null);
        assertThat(after.start()).isGreaterThanOrEqualTo(before.end());
        SlotLease next =
                Awaitility.await("the old term expired")
                        .atMost(Duration.ofMinutes(1))
                        .ignoreExceptionsInstanceOf(StoreException.class)
                        .until(
                                () -> store.slots().acquire("workers", "b", Duration.ofSeconds(5)),
                                l -> l != null);
        assertThat(next.fence()).isEqualTo(lease.fence() + 1);
        assertThat(next.floor()).isAfterOrEqualTo(lease.ceiling());
    }

    @Test
    @DisplayName(
            "a row locked by hand: the write times out within the store's timeout, and a write"
                    + " that lands after it is a gap, never a duplicate")
    void rowLockedByHand() throws Exception {
        Store store = store();
        Range first = store.ranges().acquire("orders", 10);
        try (Connection c = server.connect(databaseName());
                Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            s.execute("SELECT * FROM cosid_ranges FOR UPDATE");
            assertThatThrownBy(() -> store.ranges().acquire("orders", 10))
                    .isInstanceOf(StoreTimeoutException.class)
                    .hasMessageContaining("orders");
            c.rollback();
        }
        Range next = store.ranges().acquire("orders", 10);
        assertThat(next.start())
                .as("the timed-out statement may still land once the lock goes")
                .isIn(first.end(), first.end() + 10);
    }

    @Test
    @DisplayName(
            "a pool whose connections are all taken: a caller waits at most the timeout, then is"
                    + " served once one comes back")
    void poolExhausted() throws Exception {
        try (ConnectionPool pool = new ConnectionPool(url, new Properties(), 1, TIMEOUT)) {
            Store store =
                    JdbcStores.open(
                            StoreConfig.of("pooled", JdbcStoreProvider.TYPE)
                                    .withTimeout(TIMEOUT)
                                    .withOption("schema", "create"),
                            pool);
            opened.add(store);
            store.ranges().acquire("orders", 10);
            try (Connection taken = pool.getConnection()) {
                assertThat(taken.isValid(5)).isTrue();
                assertThatThrownBy(() -> store.ranges().acquire("orders", 10))
                        .isInstanceOf(StoreTimeoutException.class)
                        .hasMessageContaining("orders");
            }
            assertThat(store.ranges().acquire("orders", 10).start()).isEqualTo(10);
        }
    }

    private String databaseName() {
        return url.replaceAll(".*/([^/?]+)\\?.*", "$1");
    }
}
