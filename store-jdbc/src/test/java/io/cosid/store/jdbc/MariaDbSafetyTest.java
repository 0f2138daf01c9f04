package io.cosid.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.StoreException;
import io.cosid.store.Stores;
import io.cosid.store.jdbc.harness.MariaDbServer;
import java.sql.Connection;
import java.sql.DriverManager;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * MariaDB servers started with settings that break the promise: refused at open naming the setting,
 * or warned of.
 */
@DisplayName("Unsafe MariaDB servers are refused or warned of")
class MariaDbSafetyTest {

    @BeforeAll
    static void installed() {
        MariaDbServer.assumeInstalled();
    }

    @Test
    @DisplayName("the defaults are accepted; the dialect is detected")
    void defaults() throws Exception {
        try (MariaDbServer server = MariaDbServer.start();
                Store store =
                        Stores.open(
                                StoreConfig.of("safe", JdbcStoreProvider.TYPE)
                                        .withOption("url", server.jdbcUrl(server.createDatabase()))
                                        .withOption("schema", "create"))) {
            assertThat(store.ranges().acquire("orders", 5).end()).isEqualTo(5);
        }
    }

    @Test
    @DisplayName("innodb_flush_log_at_trx_commit = 2 is refused, naming it")
    void lazyFlushRefused() {
        try (MariaDbServer server = MariaDbServer.start("--innodb-flush-log-at-trx-commit=2")) {
            assertThatThrownBy(
                            () ->
                                    Stores.open(
                                            StoreConfig.of("lazy", JdbcStoreProvider.TYPE)
                                                    .withOption(
                                                            "url",
                                                            server.jdbcUrl(
                                                                    server.createDatabase()))))
                    .isInstanceOf(StoreException.class)
                    .hasMessageContaining("innodb_flush_log_at_trx_commit is not 1");
        }
    }

    @Test
    @DisplayName(
            "a read-only server is refused; a binary log not synced at each commit is warned of")
    void readOnlyAndBinlog() throws Exception {
        try (MariaDbServer server =
                MariaDbServer.start("--read-only", "--log-bin=binlog", "--sync-binlog=0")) {
            try (Connection c = DriverManager.getConnection(server.jdbcUrl(""))) {
                ServerSafety.Report report = ServerSafety.check(c, Dialect.MYSQL);
                assertThat(report.refusals()).singleElement().asString().contains("read_only = ON");
                assertThat(report.warnings())
                        .singleElement()
                        .asString()
                        .contains("sync_binlog is not 1");
            }
        }
    }
}
