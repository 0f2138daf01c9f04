package io.cosid.store.jdbc.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Assumptions;

/**
 * A real MariaDB server for tests, from the Debian packages {@code .ci/run} installs ({@code
 * mariadb-server}): a data directory copied from a template {@code mariadb-install-db} made once,
 * listening on a free loopback port, with InnoDB's durable defaults ({@code
 * innodb_flush_log_at_trx_commit = 1}). Under root it runs as {@code nobody}, like the PostgreSQL
 * servers. Each caller gets a database of its own ({@link #createDatabase}).
 */
public final class MariaDbServer implements FaultableServer {

    private static final Path SERVER = Path.of("/usr/sbin/mariadbd");
    private static final Path INSTALL = Path.of("/usr/bin/mariadb-install-db");
    private static final Duration START_BUDGET = Duration.ofMinutes(2);

    private final Path data;
    private final int port;
    private final List<String> command;
    private Process process;
    private final AtomicInteger databases = new AtomicInteger();

    private MariaDbServer(Path data, int port, List<String> command) throws IOException {
        this.data = data;
        this.port = port;
        this.command = List.copyOf(command);
        this.process = launch();
    }

    private Process launch() throws IOException {
        return new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(
                        ProcessBuilder.Redirect.appendTo(
                                data.resolveSibling(data.getFileName() + ".log").toFile()))
                .start();
    }

    /**
     * Whether this machine has MariaDB's server programs.
     *
     * @return true when {@code mariadbd} and {@code mariadb-install-db} are installed
     */
    public static boolean installed() {
        return Files.isExecutable(SERVER) && Files.isExecutable(INSTALL);
    }

    /** Skips the calling test, visibly and naming the package, where MariaDB is not installed. */
    public static void assumeInstalled() {
        Assumptions.assumeTrue(
                installed(),
                "MariaDB is not installed (Debian package mariadb-server; .ci/run installs it)");
    }

    /**
     * Starts a server and waits until it answers.
     *
     * @param settings server options beyond the defaults, as {@code --name=value}
     * @return the running server
     */
    public static MariaDbServer start(String... settings) {
        try {
            Path template = template();
            Path data = PostgresBinaries.runs().resolve("mariadb-" + UUID.randomUUID());
            run(List.of("cp", "-a", template.toString(), data.toString()));
            int port = OsProcesses.freePort();
            List<String> command = new ArrayList<>(PostgresBinaries.asUnprivileged());
            command.addAll(
                    List.of(
                            SERVER.toString(),
                            "--no-defaults",
                            "--datadir=" + data,
                            "--port=" + port,
                            "--bind-address=127.0.0.1",
                            "--socket=" + data.resolve("mysqld.sock"),
                            "--pid-file=" + data.resolve("mysqld.pid"),
                            "--skip-name-resolve"));
            command.addAll(List.of(settings));
            MariaDbServer server = new MariaDbServer(data, port, command);
            server.awaitAnswer();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start MariaDB", e);
        }
    }

    /** The data directory {@code mariadb-install-db} made once, which each server copies. */
    private static synchronized Path template() throws IOException {
        Path runs = PostgresBinaries.runs();
        Path template = runs.resolve("mariadb-template");
        try (FileChannel lockFile =
                        FileChannel.open(
                                runs.resolveSibling("mariadb.lock"),
                                StandardOpenOption.CREATE,
                                StandardOpenOption.WRITE);
                FileLock lock = lockFile.lock()) {
            if (!Files.exists(template.resolve("mysql"))) {
                run(List.of("rm", "-rf", template.toString()));
                run(
                        List.of(
                                INSTALL.toString(),
                                "--no-defaults",
                                "--datadir=" + template,
                                "--auth-root-authentication-method=normal",
                                "--skip-test-db"));
            }
        }
        return template;
    }

    private static void run(List<String> command) throws IOException {
        List<String> full = new ArrayList<>(PostgresBinaries.asUnprivileged());
        full.addAll(command);
        OsProcesses.run(full);
    }

    /**
     * The JDBC URL of {@code database}, for MySQL's Connector/J.
     *
     * @param database the database's name
     * @return the URL
     */
    @Override
    public String jdbcUrl(String database) {
        return "jdbc:mysql://127.0.0.1:" + port + "/" + database + "?user=root&sslMode=DISABLED";
    }

    @Override
    public Connection connect(String database) throws SQLException {
        return DriverManager.getConnection(jdbcUrl(database));
    }

    @Override
    public void pause() throws IOException {
        OsProcesses.signal("STOP", OsProcesses.tree(process));
    }

    @Override
    public void resume() throws IOException {
        OsProcesses.signal("CONT", OsProcesses.tree(process));
    }

    @Override
    public void crash() throws IOException {
        OsProcesses.kill(OsProcesses.tree(process), START_BUDGET);
    }

    @Override
    public void restart() throws IOException {
        process = launch();
        awaitAnswer();
    }

    /**
     * The port the server listens on.
     *
     * @return the port
     */
    public int port() {
        return port;
    }

    /**
     * Creates a database nobody else uses.
     *
     * @return its name
     */
    @Override
    public String createDatabase() {
        String name = "t" + databases.incrementAndGet();
        try (Connection c = DriverManager.getConnection(jdbcUrl(""));
                Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create database " + name, e);
        }
        return name;
    }

    private void awaitAnswer() {
        Awaitility.await("MariaDB answering on port " + port)
                .atMost(START_BUDGET)
                .pollInterval(Duration.ofMillis(100))
                .ignoreExceptionsInstanceOf(SQLException.class)
                .until(
                        () -> {
                            if (!process.isAlive()) {
                                throw new IllegalStateException("MariaDB exited: see its log");
                            }
                            try (Connection c = DriverManager.getConnection(jdbcUrl(""))) {
                                return c.isValid(5);
                            }
                        });
    }

    @Override
    public void close() {
        try {
            OsProcesses.end(process);
            run(List.of("rm", "-rf", data.toString()));
            run(List.of("rm", "-f", data.resolveSibling(data.getFileName() + ".log").toString()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String toString() {
        return "MariaDB on 127.0.0.1:" + port;
    }
}
