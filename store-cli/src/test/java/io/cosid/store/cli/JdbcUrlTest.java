package io.cosid.store.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosid.store.RangeState;
import io.cosid.store.SlotLease;
import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.Stores;
import io.cosid.store.jdbc.harness.PostgresExtension;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The tool on a PostgreSQL store named by {@code --jdbc-url}, as operators reach one. */
@DisplayName("cosid-store --jdbc-url (PostgreSQL)")
class JdbcUrlTest {

    @RegisterExtension static final PostgresExtension POSTGRES = PostgresExtension.newest();

    @Test
    @DisplayName("inspects ranges and slots, advances and seals a key, purges the store")
    void inspectsAndActs() {
        SlotLease held;
        try (Store store =
                Stores.open(
                        StoreConfig.of("setup", "jdbc")
                                .withOption("url", POSTGRES.jdbcUrl())
                                .withOption("schema", "create"))) {
            store.ranges().acquire("a", 10);
            store.slots().define("ns", 4, Duration.ofSeconds(1));
            held = store.slots().acquire("ns", "host-1", Duration.ofMinutes(5));
        }
        String url = POSTGRES.jdbcUrl();
        Cli.Result ranges = Cli.run("ranges", "list", "--jdbc-url", url);
        assertThat(ranges.code()).as(ranges.toString()).isZero();
        assertThat(ranges.out()).containsPattern("\\na +10 +no\\n");
        Cli.Result slots = Cli.run("slots", "list", "ns", "--jdbc-url", url);
        assertThat(slots.code()).as(slots.toString()).isZero();
        assertThat(slots.out()).contains("host-1");
        Cli.Result advance = Cli.run("ranges", "advance", "a", "500", "--yes", "--jdbc-url", url);
        assertThat(advance.code()).as(advance.toString()).isZero();
        Cli.Result seal = Cli.run("ranges", "seal", "a", "--yes", "--jdbc-url", url);
        assertThat(seal.code()).as(seal.toString()).isZero();
        try (Store store = Stores.open(StoreConfig.of("check", "jdbc").withOption("url", url))) {
            assertThat(store.ranges().peek("a")).contains(new RangeState(500, true));
        }
        Cli.Result refused = Cli.run("purge", "--confirm-all-instances-stopped", "--jdbc-url", url);
        assertThat(refused.code()).as("a lease is held: %s", refused).isEqualTo(3);
        try (Store store = Stores.open(StoreConfig.of("stop", "jdbc").withOption("url", url))) {
            store.slots().release(held);
        }
        Cli.Result purge = Cli.run("purge", "--confirm-all-instances-stopped", "--jdbc-url", url);
        assertThat(purge.code()).as(purge.toString()).isZero();
        assertThat(purge.out()).startsWith("purged tables cosid_* on jdbc:postgresql:");
        Cli.Result again = Cli.run("purge", "--confirm-all-instances-stopped", "--jdbc-url", url);
        assertThat(again.code()).as(again.toString()).isEqualTo(5);
        assertThat(again.err())
                .contains("nothing to purge: tables cosid_*")
                .contains("a mistyped --jdbc-url, database or table prefix?")
                .doesNotContain("--root");
        try (Store store = Stores.open(StoreConfig.of("check", "jdbc").withOption("url", url))) {
            assertThat(store.ranges().list()).isEmpty();
            assertThat(store.slots().namespaces()).isEmpty();
        }
    }

    @Test
    @DisplayName("--jdbc-url with --connect is refused, naming both")
    void oneSelection() {
        Cli.Result r =
                Cli.run("ranges", "list", "--jdbc-url", POSTGRES.jdbcUrl(), "--connect", "h:2181");
        assertThat(r.code()).as(r.toString()).isEqualTo(2);
        assertThat(r.err()).contains("use either --jdbc-url, --connect");
    }

    @Test
    @DisplayName(
            "errors speak of what the user typed: an unknown host is named, the tool's own store"
                    + " is not, and a missing table says how the tool's user can create it")
    void errorsInTheUsersTerms() throws Exception {
        Cli.Result unknown =
                Cli.run(
                        "ranges",
                        "list",
                        "--jdbc-url",
                        "jdbc:postgresql://no-such-host.invalid:5432/db?user=x",
                        "--timeout",
                        "5s");
        assertThat(unknown.code()).isNotZero();
        assertThat(unknown.err())
                .contains("no-such-host.invalid")
                .doesNotContain("store 'cli'")
                .doesNotContain("cosid.stores");
        String empty = POSTGRES.server().createDatabase();
        Cli.Result missing =
                Cli.run("ranges", "list", "--jdbc-url", POSTGRES.server().jdbcUrl(empty));
        assertThat(missing.code()).isNotZero();
        assertThat(missing.err())
                .contains("is missing")
                .contains("with --config, open a store whose options set schema: create")
                .doesNotContain("store 'cli'");
    }
}
