package io.cosid.store.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cosid.store.zookeeper.harness.SilentListener;
import io.cosid.store.zookeeper.harness.ZooKeeperServerExtension;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tool against a server that accepts connections and never answers (a silent listener, as a
 * server stopped with SIGSTOP is): each command ends soon after the wait it names, in a process of
 * its own, instead of after ZooKeeper's 60 s session timeout. The bound is generous against the 2 s
 * wait and far below the session timeout.
 */
@DisplayName("cosid-store against a server that never answers")
class FrozenServerCliTest {

    private static final Duration GENEROUS = Duration.ofSeconds(25);

    /** The migration's target: a server that answers. */
    @RegisterExtension
    static final ZooKeeperServerExtension SERVER = ZooKeeperServerExtension.primary();

    @TempDir Path dir;
    private final SilentListener listener = new SilentListener();

    @AfterEach
    void close() throws IOException {
        listener.close();
    }

    private String silent() {
        return listener.connectString();
    }

    @Test
    @DisplayName(
            "ranges list --connect-wait 2s --timeout 1s ends soon after 2 s, exit 1, naming the"
                    + " wait")
    void inspection() throws Exception {
        ToolProcess run =
                ToolProcess.run(
                        "ranges",
                        "list",
                        "--connect",
                        silent(),
                        "--connect-wait",
                        "2s",
                        "--timeout",
                        "1s");

        assertThat(run.code()).as(run.toString()).isEqualTo(ExitCodes.FAILED);
        assertThat(run.err()).contains("no connection within 2s (--connect-wait)");
        assertThat(run.took()).as(run.toString()).isLessThan(GENEROUS);
    }

    @Test
    @DisplayName("migrate --from-cosid-zookeeper ends soon after its 2 s wait, nothing written")
    void migrationSource() throws Exception {
        Path config = dir.resolve("stores.yaml");
        Files.writeString(
                config,
                "cosid:\n  stores:\n    new:\n      type: zookeeper\n      options:\n"
                        + "        connectString: "
                        + SERVER.server().connectString()
                        + "\n        root: /frozen-"
                        + UUID.randomUUID()
                        + "\n");

        ToolProcess run =
                ToolProcess.run(
                        "migrate",
                        "--config",
                        config.toString(),
                        "--from-cosid-zookeeper",
                        silent(),
                        "--connect-wait",
                        "2s",
                        "--to",
                        "new",
                        "--all");

        assertThat(run.code()).as(run.toString()).isEqualTo(ExitCodes.FAILED);
        assertThat(run.err())
                .contains("could not connect to CosId's ZooKeeper at " + silent() + " within 2s")
                .contains("nothing was written");
        assertThat(run.took()).as(run.toString()).isLessThan(GENEROUS);
    }

    @Test
    @DisplayName("Ctrl-C (SIGINT) while waiting exits 130 and says so on stderr")
    void interrupted() throws Exception {
        Process tool =
                ToolProcess.startAsFromATerminal(
                        "ranges", "list", "--connect", silent(), "--connect-wait", "60s");
        await("the tool to connect to the listener")
                .atMost(Duration.ofMinutes(1))
                .until(listener::connected);
        new ProcessBuilder("kill", "-INT", Long.toString(tool.pid())).start().waitFor();

        ToolProcess run = ToolProcess.finish(tool, System.nanoTime());
        assertThat(run.code()).as(run.toString()).isEqualTo(130);
        assertThat(run.err())
                .contains(
                        "cosid-store: stopped by a signal (Ctrl-C or SIGINT exits 130, SIGTERM"
                                + " 143)");
    }
}
