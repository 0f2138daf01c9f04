package io.cosid.store.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.Stores;
import io.cosid.store.jdbc.harness.PostgresExtension;
import io.cosid.store.zookeeper.harness.ZooKeeperServerExtension;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code --log-level} turns the store's own log lines up on stderr; without it the tool prints only
 * its results and one-line errors. Each run is a process of its own, as a user's is, since a
 * logger's level is fixed once the logger exists.
 */
@DisplayName("cosid-store --log-level")
class LogLevelTest {

    @RegisterExtension
    static final ZooKeeperServerExtension SERVER = ZooKeeperServerExtension.primary();

    @RegisterExtension static final PostgresExtension POSTGRES = PostgresExtension.newest();

    private final String root = "/cli-log-" + UUID.randomUUID().toString().substring(0, 8);

    private ToolProcess tool(String... args) throws IOException, InterruptedException {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--connect", SERVER.server().connectString(), "--root", root));
        return ToolProcess.run(all.toArray(String[]::new));
    }

    @Test
    @DisplayName("info shows the store opening with its options and closing; nothing else changes")
    void info() throws Exception {
        ToolProcess run = tool("--log-level", "info", "ranges", "list");
        assertThat(run.code()).isZero();
        assertThat(run.err())
                .contains("store 'cli' (zookeeper) opened: connectString=")
                .contains("root=" + root)
                .contains("store 'cli' (zookeeper) closed")
                .doesNotContain("org.apache.zookeeper")
                .doesNotContain("Exception");
    }

    @Test
    @DisplayName("debug adds every operation")
    void debug() throws Exception {
        ToolProcess run = tool("--log-level=debug", "ranges", "list");
        assertThat(run.code()).isZero();
        assertThat(run.err()).contains("store 'cli': range.list took ");
    }

    @Test
    @DisplayName(
            "a JDBC store logs as a ZooKeeper one: its open with the options (no password), every"
                    + " operation at debug, its close")
    void jdbc() throws Exception {
        try (Store store =
                Stores.open(
                        StoreConfig.of("setup", "jdbc")
                                .withOption("url", POSTGRES.jdbcUrl())
                                .withOption("schema", "create"))) {
            store.ranges().acquire("logged", 10);
        }
        String url = POSTGRES.jdbcUrl() + "&password=s3cret-in-url";
        ToolProcess run =
                ToolProcess.run("--log-level", "debug", "ranges", "list", "--jdbc-url", url);
        assertThat(run.code()).as(run.err()).isZero();
        assertThat(run.err())
                .contains("store 'cli' (jdbc) opened: url=jdbc:postgresql:")
                .contains("password=***", "dialect=postgresql", "tables=cosid_*")
                .contains("store 'cli': range.list took ")
                .contains("store 'cli' (jdbc) closed")
                .doesNotContain("s3cret")
                .doesNotContain("Exception");
        ToolProcess quiet = ToolProcess.run("ranges", "list", "--jdbc-url", url);
        assertThat(quiet.code()).as(quiet.err()).isZero();
        assertThat(quiet.err()).isEmpty();
    }

    @Test
    @DisplayName("by default the store writes no log line")
    void quietByDefault() throws Exception {
        ToolProcess run = tool("ranges", "list");
        assertThat(run.code()).isZero();
        assertThat(run.err()).isEmpty();
    }

    @Test
    @DisplayName("an unknown level is a usage error naming the levels")
    void unknownLevel() throws Exception {
        ToolProcess run = tool("--log-level", "loud", "ranges", "list");
        assertThat(run.code()).isEqualTo(2);
        assertThat(run.err()).contains("loud").contains("off, error, warn, info, debug, trace");
    }
}
