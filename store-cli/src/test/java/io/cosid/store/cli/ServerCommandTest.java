package io.cosid.store.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code server} command as a user runs it: its own process, stopped by a signal. */
@DisplayName("cosid-store server")
class ServerCommandTest {

    private static final Pattern READY =
            Pattern.compile("ZooKeeper listening on (\\S+); data in (\\S+) \\(temporary");

    @Test
    @DisplayName(
            "serves the other commands on --port until stopped, then removes its temporary data")
    void servesUntilStopped() throws Exception {
        int port = freePort();
        Process server = tool("server", "--port", Integer.toString(port));
        try {
            String first = firstLine(server);
            Matcher ready = READY.matcher(String.valueOf(first));
            assertThat(ready.find()).as(first).isTrue();
            assertThat(ready.group(1)).isEqualTo("127.0.0.1:" + port);
            Path data = Path.of(ready.group(2));
            assertThat(data).isDirectory();

            Cli.Result r = Cli.run("namespaces", "--connect", ready.group(1));
            assertThat(r.code()).as(r.toString()).isZero();

            server.destroy(); // SIGTERM: the shutdown path Ctrl-C takes too
            assertThat(server.waitFor(60, TimeUnit.SECONDS)).as("stopped").isTrue();
            assertThat(data).as("temporary data removed on exit").doesNotExist();
        } finally {
            server.destroyForcibly();
        }
    }

    @Test
    @DisplayName("a demo stopped mid-run (Ctrl-C) removes its embedded server's data")
    void demoStoppedMidRun() throws Exception {
        Process demo = tool("demo", "--duration", "120s");
        try {
            String first = firstLine(demo);
            Matcher started =
                    Pattern.compile("embedded ZooKeeper on \\S+ \\(data in (\\S+),")
                            .matcher(String.valueOf(first));
            assertThat(started.find()).as(first).isTrue();
            Path data = Path.of(started.group(1));
            assertThat(data).isDirectory();
            demo.destroy(); // SIGTERM: the shutdown path Ctrl-C takes too
            assertThat(demo.waitFor(60, TimeUnit.SECONDS)).as("stopped").isTrue();
            assertThat(data).as("temporary data removed").doesNotExist();
        } finally {
            demo.destroyForcibly();
        }
    }

    @Test
    @DisplayName(
            "with --backend postgresql, its processes stopped (SIGSTOP) and all but the tool's own"
                    + " child continued: SIGTERM still ends the tool well within its 60 s budget,"
                    + " and the data is removed")
    void postgresStoppedAndContinued() throws Exception {
        int port = freePort();
        Process server =
                tool("server", "--backend", "postgresql", "--port", Integer.toString(port));
        try {
            Path data = PostgresReady.of(server).data();
            List<ProcessHandle> tree = server.toHandle().descendants().toList();
            ProcessHandle child = server.toHandle().children().findFirst().orElseThrow();
            signal("-STOP", tree);
            signal("-CONT", tree.stream().filter(p -> p.pid() != child.pid()).toList());
            long start = System.nanoTime();
            server.destroy(); // SIGTERM
            assertThat(server.waitFor(120, TimeUnit.SECONDS)).as("stopped").isTrue();
            assertThat(Duration.ofNanos(System.nanoTime() - start))
                    .as("not the 60 s a stopped child would make it wait")
                    .isLessThan(Duration.ofSeconds(45));
            assertThat(data).as("temporary data removed on exit").doesNotExist();
            assertThat(listening(port)).as("the server ended with the tool").isFalse();
        } finally {
            server.destroyForcibly();
        }
    }

    /** What {@code server --backend postgresql} says when it is ready: its URL and its data. */
    private record PostgresReady(String url, Path data) {
        static PostgresReady of(Process server) throws Exception {
            String first = firstLine(server);
            Matcher ready =
                    Pattern.compile("PostgreSQL listening on (\\S+); data in (\\S+) \\(temporary")
                            .matcher(String.valueOf(first));
            assertThat(ready.find()).as(first).isTrue();
            return new PostgresReady(ready.group(1), Path.of(ready.group(2)));
        }
    }

    private static void signal(String signal, List<ProcessHandle> processes) throws Exception {
        List<String> command = new ArrayList<>(List.of("kill", signal));
        processes.forEach(p -> command.add(Long.toString(p.pid())));
        assertThat(new ProcessBuilder(command).inheritIO().start().waitFor())
                .as(String.join(" ", command))
                .isZero();
    }

    @Test
    @DisplayName(
            "with --backend postgresql serves the JDBC commands until stopped, then ends the"
                    + " server and removes its data")
    void postgresServesUntilStopped() throws Exception {
        int port = freePort();
        Process server =
                tool("server", "--backend", "postgresql", "--port", Integer.toString(port));
        try {
            PostgresReady ready = PostgresReady.of(server);
            assertThat(ready.url())
                    .isEqualTo("jdbc:postgresql://127.0.0.1:" + port + "/postgres?user=postgres");
            Path data = ready.data();
            assertThat(data.resolve("data/PG_VERSION")).isRegularFile();
            // what docs/operations.md says of who may connect: loopback and socket lines, trust
            assertThat(
                            Files.readAllLines(data.resolve("data/pg_hba.conf")).stream()
                                    .map(String::strip)
                                    .filter(l -> !l.isEmpty() && !l.startsWith("#"))
                                    .map(l -> String.join(" ", l.split("\\s+"))))
                    .containsExactlyInAnyOrder(
                            "local all all trust",
                            "host all all 127.0.0.1/32 trust",
                            "host all all ::1/128 trust",
                            "local replication all trust",
                            "host replication all 127.0.0.1/32 trust",
                            "host replication all ::1/128 trust");

            // the store's tables are there: a command that validates them (the default) works
            Cli.Result r = Cli.run("namespaces", "--jdbc-url", ready.url());
            assertThat(r.code()).as(r.toString()).isZero();

            server.destroy(); // SIGTERM: the shutdown path Ctrl-C takes too
            assertThat(server.waitFor(120, TimeUnit.SECONDS)).as("stopped").isTrue();
            assertThat(data).as("temporary data removed on exit").doesNotExist();
            assertThat(listening(port)).as("the server ended with the tool").isFalse();
        } finally {
            server.destroyForcibly();
        }
    }

    @Test
    @DisplayName(
            "a demo on PostgreSQL stopped mid-run (Ctrl-C) ends its server and removes its data")
    void postgresDemoStoppedMidRun() throws Exception {
        Process demo = tool("demo", "--backend", "postgresql", "--duration", "120s");
        try {
            String first = firstLine(demo);
            Matcher started =
                    Pattern.compile(
                                    "embedded PostgreSQL on jdbc:postgresql://127.0.0.1:(\\d+)/\\S+"
                                            + " \\(data in (\\S+),")
                            .matcher(String.valueOf(first));
            assertThat(started.find()).as(first).isTrue();
            Path data = Path.of(started.group(2));
            assertThat(data).isDirectory();
            demo.destroy();
            assertThat(demo.waitFor(120, TimeUnit.SECONDS)).as("stopped").isTrue();
            assertThat(data).as("temporary data removed").doesNotExist();
            assertThat(listening(Integer.parseInt(started.group(1))))
                    .as("the server ended with the demo")
                    .isFalse();
        } finally {
            demo.destroyForcibly();
        }
    }

    @Test
    @DisplayName(
            "as root, refuses a PostgreSQL data directory the unprivileged user cannot reach,"
                    + " naming it")
    void postgresDataOutOfReach(@TempDir Path privateDir) throws IOException {
        assumeTrue(
                "root".equals(System.getProperty("user.name")),
                "only root runs PostgreSQL as another user");
        Path data = privateDir.resolve("pg"); // privateDir: root's alone (mode 700)
        Cli.Result r =
                assertTimeoutPreemptively(
                        Duration.ofMinutes(2),
                        () ->
                                Cli.run(
                                        "server",
                                        "--backend",
                                        "postgresql",
                                        "--port",
                                        Integer.toString(freePort()),
                                        "--data",
                                        data.toString()));
        assertThat(r.code()).as(r.toString()).isEqualTo(2);
        assertThat(r.err()).contains("cannot reach " + data).contains("nobody");
    }

    private static boolean listening(int port) {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    @Test
    @DisplayName(
            "a demo stopped while its embedded server starts removes the server's data all the"
                    + " same")
    void demoStoppedDuringStartUp(@TempDir Path tmp) throws Exception {
        Process demo = tool(List.of("-Djava.io.tmpdir=" + tmp), "demo", "--duration", "120s");
        try {
            // the signal goes as soon as the server's temporary directory exists: before the
            // demo has printed anything, on any machine fast enough to poll while it starts
            Path data =
                    await("the embedded server's temporary directory")
                            .atMost(Duration.ofMinutes(2))
                            .pollInterval(Duration.ofMillis(1))
                            .until(() -> created(tmp), Optional::isPresent)
                            .orElseThrow();
            demo.destroy();
            assertThat(demo.waitFor(60, TimeUnit.SECONDS)).as("stopped").isTrue();
            assertThat(data).as("temporary data removed").doesNotExist();
        } finally {
            demo.destroyForcibly();
        }
    }

    private static Optional<Path> created(Path tmp) throws IOException {
        try (Stream<Path> entries = Files.list(tmp)) {
            return entries.filter(
                            p -> p.getFileName().toString().startsWith("cosid-store-zookeeper-"))
                    .findFirst();
        }
    }

    /** The tool in a process of its own, as a user runs it. */
    private static Process tool(String... args) throws IOException {
        return tool(List.of(), args);
    }

    /** The tool in a process of its own with these JVM options. */
    private static Process tool(List<String> jvmOptions, String... args) throws IOException {
        List<String> command =
                new ArrayList<>(
                        List.of(
                                Path.of(System.getProperty("java.home"), "bin", "java")
                                        .toString()));
        command.addAll(jvmOptions);
        command.addAll(
                List.of(
                        "-cp",
                        System.getProperty("java.class.path"),
                        CosIdStoreCli.class.getName()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    }

    @Test
    @DisplayName("refuses a port in use, naming it, with exit 2")
    void portInUse() throws IOException {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Cli.Result r = Cli.run("server", "--port", Integer.toString(taken.getLocalPort()));
            assertThat(r.code()).isEqualTo(2);
            assertThat(r.err()).contains("port " + taken.getLocalPort()).contains("in use");
        }
    }

    /** The first line the process prints, waiting generously: it may have to start a server. */
    private static String firstLine(Process process) throws Exception {
        BufferedReader lines =
                new BufferedReader(
                        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        return CompletableFuture.supplyAsync(() -> readLine(lines)).get(120, TimeUnit.SECONDS);
    }

    private static String readLine(BufferedReader lines) {
        try {
            return lines.readLine();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
