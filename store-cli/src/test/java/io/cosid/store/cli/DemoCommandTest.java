package io.cosid.store.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cosid.store.zookeeper.harness.ForkedEnsemble;
import io.cosid.store.zookeeper.harness.ZooKeeperServerExtension;
import io.cosid.store.zookeeper.harness.ZooKeeperServers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

@DisplayName("cosid-store demo")
class DemoCommandTest {

    @RegisterExtension
    static final ZooKeeperServerExtension SERVER = ZooKeeperServerExtension.primary();

    @Test
    @DisplayName(
            "runs a fleet on an embedded ZooKeeper with a crash and restarts: exit 0, 0 duplicates,"
                    + " 0 overlaps, final count as the last progress line")
    void demo() {
        Cli.Result r = Cli.run("demo", "--instances", "4", "--duration", "6s", "--ttl", "1s");
        // Only invariants and outcomes: how many takeovers, terms or give-backs a run shows depends
        // on the scheduler (on a starved machine a healthy instance may miss a renewal and lose
        // its 1 s lease too). The demo checks each takeover itself (larger fence, floor at or
        // above the previous window's end) and reports a violation as an overlap.
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.out())
                .contains("embedded ZooKeeper on 127.0.0.1:")
                .contains("crashed 1 instance(s) without release")
                .contains("duplicates: 0 (checked over every ID generated)")
                .contains("window overlaps: 0")
                .contains("timeouts: 0")
                .contains("== what happened ==")
                .containsPattern(
                        "takeovers after expiry \\(larger fence, floor >= old ceiling\\): \\d+")
                .containsPattern(
                        "restarted instances given their slot back by the owner index: \\d of 1");
        Matcher last =
                Pattern.compile("stopped: \\[.*\\] snowflake IDs ([0-9,]+) · segment IDs ([0-9,]+)")
                        .matcher(r.out());
        assertThat(last.find()).as("a final progress line after the fleet stopped").isTrue();
        assertThat(r.out())
                .as("the summary counts what the final progress line counts")
                .contains(
                        "IDs generated: "
                                + last.group(1)
                                + " snowflake + "
                                + last.group(2)
                                + " segment");
        assertThat(r.err()).isEmpty();
    }

    @Test
    @DisplayName(
            "runs the same fleet on a PostgreSQL it starts itself (--backend postgresql): exit 0,"
                    + " 0 duplicates, 0 overlaps, the crashed instance's slot taken over")
    void demoOnPostgres() {
        Cli.Result r =
                Cli.run(
                        "demo",
                        "--backend",
                        "postgresql",
                        "--instances",
                        "4",
                        "--duration",
                        "6s",
                        "--ttl",
                        "1s");
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.out())
                .contains("embedded PostgreSQL on jdbc:postgresql://127.0.0.1:")
                .contains("crashed 1 instance(s) without release")
                .contains("duplicates: 0 (checked over every ID generated)")
                .contains("window overlaps: 0")
                .contains("timeouts: 0")
                .containsPattern(
                        "takeovers after expiry \\(larger fence, floor >= old ceiling\\): \\d+")
                .containsPattern("ranges acquired: [1-9]");
        assertThat(r.err()).isEmpty();
    }

    @Test
    @DisplayName("refuses an unknown --backend and --connect with postgresql, naming what goes")
    void badBackend() {
        Cli.Result unknown = Cli.run("demo", "--backend", "mysql");
        assertThat(unknown.code()).isEqualTo(2);
        assertThat(unknown.err()).contains("--backend must be zookeeper or postgresql, got mysql");
        Cli.Result both = Cli.run("demo", "--backend", "postgresql", "--connect", "127.0.0.1:1");
        assertThat(both.code()).isEqualTo(2);
        assertThat(both.err()).contains("--connect names a ZooKeeper");
    }

    @Test
    @DisplayName("prints its summary as JSON for scripts")
    void json() {
        Cli.Result r = smallDemo("--json");
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.out().trim())
                .startsWith("{\"schemaVersion\":1,\"instances\":2,")
                .contains("\"duplicates\":0")
                .contains("\"windowOverlaps\":[]")
                .contains("\"errors\":[]")
                .contains("\"timeouts\":[]")
                .doesNotContain("embedded ZooKeeper");
    }

    @Test
    @DisplayName("with --connect, removes its root afterwards unless --keep")
    void connectRemovesRoot() throws Exception {
        String server = SERVER.server().connectString();
        Cli.Result removed = smallDemo("--connect", server);
        assertThat(removed.code()).as(removed.toString()).isZero();
        Matcher root =
                Pattern.compile("removed root (/cosid-demo-\\w+) from").matcher(removed.out());
        assertThat(root.find()).as(removed.out()).isTrue();

        Cli.Result kept = smallDemo("--connect", server, "--keep");
        assertThat(kept.code()).as(kept.toString()).isZero();
        Matcher keptRoot = Pattern.compile("kept root (/cosid-demo-\\w+) on").matcher(kept.out());
        assertThat(keptRoot.find()).as(kept.out()).isTrue();

        try (CuratorFramework client =
                CuratorFrameworkFactory.newClient(server, new RetryOneTime(100))) {
            client.start();
            assertThat(client.checkExists().forPath(root.group(1))).as("removed").isNull();
            assertThat(client.checkExists().forPath(keptRoot.group(1))).as("kept").isNotNull();
            client.delete().deletingChildrenIfNeeded().forPath(keptRoot.group(1));
        }
    }

    @Test
    @DisplayName(
            "with --connect, a run that fails because its server stopped answering says where its"
                    + " root stays and the purge command that removes it")
    void failedRunNamesItsRoot() throws Exception {
        try (ForkedEnsemble server = ForkedEnsemble.standalone(ZooKeeperServers.PRIMARY);
                CuratorFramework client =
                        CuratorFrameworkFactory.newClient(
                                server.connectString(), new RetryOneTime(100))) {
            client.start();
            CompletableFuture<Cli.Result> run =
                    CompletableFuture.supplyAsync(
                            () ->
                                    Cli.run(
                                            "demo",
                                            "--connect",
                                            server.connectString(),
                                            "--instances",
                                            "2",
                                            "--duration",
                                            "12s",
                                            "--ttl",
                                            "1s",
                                            "--quiet"));
            await("the demo's root on the server")
                    .atMost(Duration.ofMinutes(1))
                    .until(() -> !demoRoots(client).isEmpty());
            Cli.Result r;
            server.pause(1);
            try {
                // stopped until the demo has ended: its operations and its clean-up time out
                r = run.get(2, TimeUnit.MINUTES);
            } finally {
                server.resume(1);
            }

            assertThat(r.code()).as(r.toString()).isEqualTo(ExitCodes.FAILED);
            Matcher purge =
                    Pattern.compile(
                                    "the demo's root (/cosid-demo-\\w+) stays on \\S+ \\(.*\\);"
                                            + " remove it with: cosid-store (purge .*)")
                            .matcher(r.err());
            assertThat(purge.find()).as(r.err()).isTrue();
            assertThat(demoRoots(client)).contains(purge.group(1).substring(1));

            assertThat(purge.group(2))
                    .isEqualTo(
                            "purge --connect "
                                    + server.connectString()
                                    + " --root "
                                    + purge.group(1)
                                    + " --confirm-all-instances-stopped");
            client.delete().deletingChildrenIfNeeded().forPath(purge.group(1));
        }
    }

    private static List<String> demoRoots(CuratorFramework client) throws Exception {
        return client.getChildren().forPath("/").stream()
                .filter(n -> n.startsWith("cosid-demo-"))
                .toList();
    }

    /** The shortest demo that still crashes and takes over: 2 instances, 3 s, ttl 500 ms. */
    private static Cli.Result smallDemo(String... more) {
        List<String> args =
                new ArrayList<>(
                        List.of("demo", "--instances", "2", "--duration", "3s", "--ttl", "500ms"));
        args.addAll(List.of(more));
        return Cli.run(args.toArray(String[]::new));
    }

    @Test
    @DisplayName("prints a shell completion script generated from its commands")
    void completion() {
        Cli.Result r = Cli.run("generate-completion");
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("complete -F").contains("demo").contains("server");
    }

    @Test
    @DisplayName("refuses options that cannot show a takeover, naming them")
    void badOptions() {
        Cli.Result r = Cli.run("demo", "--duration", "2s", "--ttl", "1s");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("--duration 2s must be at least 6 x --ttl");
        assertThat(Cli.run("demo", "--instances", "1").err())
                .contains("--instances must be a power of two from 2 to 1024");
    }
}
