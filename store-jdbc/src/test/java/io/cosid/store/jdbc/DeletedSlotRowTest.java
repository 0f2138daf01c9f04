package io.cosid.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cosid.store.SlotLease;
import io.cosid.store.SlotsExhaustedException;
import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.Stores;
import io.cosid.store.jdbc.harness.PostgresExtension;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A namespace creates every slot's row at {@code define}, so an acquire does not count the rows on
 * every call: a row deleted by hand, which a store that never saw the slot takes as never held
 * (docs/contract.md, "What no store can see"), is taken when it is preferred or owned, or once no
 * other slot is free (store-jdbc/README.md, "Tables").
 */
@DisplayName("A slot row deleted by hand (PostgreSQL)")
class DeletedSlotRowTest {

    @RegisterExtension static final PostgresExtension POSTGRES = PostgresExtension.newest();

    private static final Duration TTL = Duration.ofMinutes(5);

    @Test
    @DisplayName(
            "a store that never saw it takes it once no other slot is free, or when it prefers"
                    + " it; then the namespace is exhausted")
    void takenLast() throws Exception {
        String prefix = "d" + UUID.randomUUID().toString().substring(0, 8) + "_";
        StoreConfig config =
                StoreConfig.of("deleted", JdbcStoreProvider.TYPE)
                        .withOption("url", POSTGRES.jdbcUrl())
                        .withOption("tablePrefix", prefix);
        try (Store setup = Stores.open(config.withOption("schema", "create"))) {
            setup.slots().define("ns", 4, Duration.ZERO);
        }
        try (Connection c = DriverManager.getConnection(POSTGRES.jdbcUrl());
                Statement s = c.createStatement()) {
            s.execute("DELETE FROM " + prefix + "slots WHERE slot IN (1, 3)");
        }
        try (Store store = Stores.open(config)) {
            assertThat(store.slots().acquire("ns", "a", TTL).slot()).isZero();
            SlotLease preferred = store.slots().acquire("ns", "b", TTL, 3);
            assertThat(preferred.slot()).as("a missing row it prefers").isEqualTo(3);
            assertThat(preferred.fence()).isEqualTo(1);
            assertThat(store.slots().acquire("ns", "c", TTL).slot())
                    .as("the lowest existing free row first")
                    .isEqualTo(2);
            SlotLease last = store.slots().acquire("ns", "d", TTL);
            assertThat(last.slot()).as("the missing row once none else is free").isEqualTo(1);
            assertThat(last.fence()).isEqualTo(1);
            assertThatThrownBy(() -> store.slots().acquire("ns", "e", TTL))
                    .isInstanceOf(SlotsExhaustedException.class);
        }
    }
}
