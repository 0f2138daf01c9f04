package io.cosid.store.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosid.store.zookeeper.harness.ZooKeeperServerExtension;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
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

    private final String root = "/cli-log-" + UUID.randomUUID().toString().substring(0, 8);

    /** What a run printed. */
    private record Run(int code, String out, String err) {}

    private Run tool(String... args) throws IOException, InterruptedException {
        List<String> command =
                new ArrayList<>(
                        List.of(
                                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                                "-cp",
                                System.getProperty("java.class.path"),
                                CosIdStoreCli.class.getName()));
        command.addAll(List.of(args));
        command.addAll(List.of("--connect", SERVER.server().connectString(), "--root", root));
        Process p = new ProcessBuilder(command).start();
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        byte[] err = p.getErrorStream().readAllBytes();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("the tool ends").isTrue();
        return new Run(
                p.exitValue(),
                new String(out, StandardCharsets.UTF_8),
                new String(err, StandardCharsets.UTF_8));
    }

    @Test
    @DisplayName("info shows the store opening with its options and closing; nothing else changes")
    void info() throws Exception {
        Run run = tool("--log-level", "info", "ranges", "list");
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
        Run run = tool("--log-level=debug", "ranges", "list");
        assertThat(run.code()).isZero();
        assertThat(run.err()).contains("store 'cli': range.list took ");
    }

    @Test
    @DisplayName("by default the store writes no log line")
    void quietByDefault() throws Exception {
        Run run = tool("ranges", "list");
        assertThat(run.code()).isZero();
        assertThat(run.err()).isEmpty();
    }

    @Test
    @DisplayName("an unknown level is a usage error naming the levels")
    void unknownLevel() throws Exception {
        Run run = tool("--log-level", "loud", "ranges", "list");
        assertThat(run.code()).isEqualTo(2);
        assertThat(run.err()).contains("loud").contains("off, error, warn, info, debug, trace");
    }
}
