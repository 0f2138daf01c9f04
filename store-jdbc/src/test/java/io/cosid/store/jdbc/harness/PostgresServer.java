package io.cosid.store.jdbc.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;

/**
 * A real PostgreSQL server for tests: one version's programs ({@link PostgresBinaries}), a data
 * directory copied from the version's template, listening on a free loopback port with its socket
 * in the data directory, with PostgreSQL's defaults for durability ({@code fsync} and {@code
 * synchronous_commit} on). Each caller gets a database of its own ({@link #createDatabase}).
 * Closing stops the server (a fast shutdown) and deletes its data.
 */
public final class PostgresServer implements FaultableServer {

    private static final Duration START_BUDGET = Duration.ofMinutes(2);

    private final PostgresBinaries binaries;
    private final Path data;
    private final int port;
    private final List<String> command;
    private Process process;
    private final AtomicInteger databases = new AtomicInteger();

    private PostgresServer(PostgresBinaries binaries, Path data, int port, List<String> command)
            throws IOException {
        this.binaries = binaries;
        this.data = data;
        this.port = port;
        this.command = List.copyOf(command);
        this.process = launch();
    }

    private static List<String> serverCommand(PostgresBinaries binaries, Path data, int port) {
        List<String> command = new ArrayList<>(PostgresBinaries.asUnprivileged());
        command.addAll(
                List.of(
                        binaries.program("postgres").toString(),
                        "-D",
                        data.toString(),
                        "-p",
                        Integer.toString(port),
                        "-k",
                        data.toString(),
                        "-c",
                        "listen_addresses=127.0.0.1"));
        return command;
    }

    private Process launch() throws IOException {
        return new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log().toFile()))
                .start();
    }

    /**
     * Starts a server of PostgreSQL {@code version} (a zonky artifact version such as 18.7.0) and
     * waits until it answers.
     *
     * @param version the version
     * @param settings server settings beyond the defaults, as {@code name=value}
     * @return the running server
     */
    public static PostgresServer start(String version, String... settings) {
        PostgresBinaries binaries = PostgresBinaries.of(version);
        try {
            Path data = PostgresBinaries.runs().resolve("run-" + UUID.randomUUID());
            copyTemplate(binaries, data);
            int port = OsProcesses.freePort();
            List<String> command = new ArrayList<>(serverCommand(binaries, data, port));
            for (String setting : settings) {
                command.addAll(List.of("-c", setting));
            }
            PostgresServer server = new PostgresServer(binaries, data, port, command);
            server.killOnExit();
            server.awaitAnswer();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start PostgreSQL " + version, e);
        }
    }

    /** The version this server runs (a zonky artifact version). */
    public String version() {
        return binaries.version();
    }

    /**
     * The JDBC URL of {@code database} on this server.
     *
     * @param database the database's name
     * @return the URL
     */
    @Override
    public String jdbcUrl(String database) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database + "?user=postgres";
    }

    /**
     * A new connection to {@code database}.
     *
     * @param database the database's name
     * @return the connection
     * @throws SQLException if it cannot connect
     */
    @Override
    public Connection connect(String database) throws SQLException {
        return DriverManager.getConnection(jdbcUrl(database));
    }

    /**
     * Creates a database nobody else uses.
     *
     * @return its name
     */
    @Override
    public String createDatabase() {
        String name = "t" + databases.incrementAndGet();
        try (Connection c = connect("postgres");
                Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create database " + name, e);
        }
        return name;
    }

    /**
     * The operating-system user the server's postmaster runs as.
     *
     * @return the user's name
     * @throws IOException if the postmaster's pid file or process cannot be read
     */
    public String osUser() throws IOException {
        String pid = Files.readAllLines(data.resolve("postmaster.pid")).get(0).trim();
        return Files.getOwner(Path.of("/proc", pid)).getName();
    }

    /**
     * The server's processes: the one this harness started (under root, {@code runuser}, which
     * stops itself when its child stops, as {@code su} does for job control), the postmaster and
     * every process the postmaster started.
     *
     * @return their process ids
     */
    public List<Long> processes() {
        return OsProcesses.tree(process);
    }

    /**
     * Stops every process of the server (SIGSTOP), as a frozen machine or a long pause would: it
     * accepts connections in the kernel but answers nothing.
     *
     * @throws IOException if a signal cannot be sent
     */
    @Override
    public void pause() throws IOException {
        OsProcesses.signal("STOP", processes());
    }

    /**
     * Stops one process of the server (SIGSTOP), say a WAL sender, so that it sends nothing more.
     *
     * @param pid the process, as {@code pg_stat_activity} or {@code pg_stat_replication} name it
     * @throws IOException if the signal cannot be sent
     */
    public void pause(long pid) throws IOException {
        OsProcesses.signal("STOP", List.of(pid));
    }

    /**
     * Lets a paused server go on (SIGCONT).
     *
     * @throws IOException if a signal cannot be sent
     */
    @Override
    public void resume() throws IOException {
        OsProcesses.signal("CONT", processes());
    }

    /**
     * Kills the server as a power cut would (SIGKILL to every process): what was committed with
     * {@code fsync} on survives, what was not is lost.
     *
     * @throws IOException if a signal cannot be sent
     */
    @Override
    public void crash() throws IOException {
        OsProcesses.kill(processes(), START_BUDGET);
    }

    /**
     * Starts a crashed server again on the same data and port, and waits until it answers (after
     * its crash recovery).
     *
     * @throws IOException if it cannot start
     */
    @Override
    public void restart() throws IOException {
        process = launch();
        awaitAnswer();
    }

    /**
     * Makes connections of {@code role} authenticate with a password ({@code scram-sha-256}): the
     * role is created with it, and a rule ahead of the others asks for it.
     *
     * @param role the role, created here
     * @param password its password
     * @throws IOException if pg_hba.conf cannot be written
     * @throws SQLException if the role cannot be created or the rules reloaded
     */
    public void requirePassword(String role, String password) throws IOException, SQLException {
        try (Connection c = connect("postgres");
                Statement s = c.createStatement()) {
            s.execute("CREATE ROLE " + role + " LOGIN SUPERUSER PASSWORD '" + password + "'");
            Path hba = data.resolve("pg_hba.conf");
            String rule = "host all " + role + " 127.0.0.1/32 scram-sha-256\n";
            List<String> write = new ArrayList<>(PostgresBinaries.asUnprivileged());
            write.addAll(
                    List.of(
                            "sh",
                            "-c",
                            "printf '"
                                    + rule
                                    + "' | cat - "
                                    + hba
                                    + " > "
                                    + hba
                                    + ".new && mv "
                                    + hba
                                    + ".new "
                                    + hba));
            OsProcesses.run(write);
            s.execute("SELECT pg_reload_conf()");
        }
    }

    /**
     * Starts a hot standby of this server, as {@code pg_basebackup -R} would make one (zonky's
     * binaries have no {@code pg_basebackup}): a physical replication slot keeps the WAL, a copy of
     * the data directory is taken between {@code pg_backup_start} and {@code pg_backup_stop}, and a
     * server on a port of its own streams this one's WAL asynchronously (no {@code
     * synchronous_standby_names}).
     *
     * @return the running standby
     */
    public PostgresServer startStandby() {
        try (Connection c = connect("postgres");
                Statement s = c.createStatement()) {
            Path standby = PostgresBinaries.runs().resolve("run-" + UUID.randomUUID());
            s.execute("SELECT pg_create_physical_replication_slot('standby', true)");
            s.execute("SELECT pg_backup_start('standby', true)");
            asServer(List.of("cp", "-a", data.toString(), standby.toString()));
            String label;
            try (ResultSet r = s.executeQuery("SELECT labelfile FROM pg_backup_stop(true)")) {
                r.next();
                label = r.getString(1);
            }
            asServer(List.of("rm", "-f", standby.resolve("postmaster.pid").toString()));
            writeAsServer(standby.resolve("backup_label"), label, false);
            writeAsServer(standby.resolve("standby.signal"), "", false);
            writeAsServer(
                    standby.resolve("postgresql.auto.conf"),
                    "primary_conninfo = 'host=127.0.0.1 port="
                            + port
                            + " user=postgres'\nprimary_slot_name = 'standby'\n",
                    true);
            int standbyPort = OsProcesses.freePort();
            PostgresServer server =
                    new PostgresServer(
                            binaries,
                            standby,
                            standbyPort,
                            serverCommand(binaries, standby, standbyPort));
            server.awaitAnswer();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start a standby of " + this, e);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot start a standby of " + this, e);
        }
    }

    /** Runs a command as the user the server runs as. */
    private static void asServer(List<String> command) throws IOException {
        List<String> full = new ArrayList<>(PostgresBinaries.asUnprivileged());
        full.addAll(command);
        OsProcesses.run(full);
    }

    /** Writes (or appends) a file in a data directory, as the user the server runs as. */
    private static void writeAsServer(Path file, String text, boolean append) throws IOException {
        Path staged = Files.createTempFile("cosid-store-pg", ".txt");
        try {
            Files.writeString(staged, text);
            staged.toFile().setReadable(true, false);
            asServer(
                    List.of(
                            "sh",
                            "-c",
                            "cat '" + staged + "' " + (append ? ">>" : ">") + " '" + file + "'"));
        } finally {
            Files.deleteIfExists(staged);
        }
    }

    /**
     * The port the server listens on.
     *
     * @return the port
     */
    public int port() {
        return port;
    }

    private void awaitAnswer() {
        Awaitility.await("PostgreSQL " + version() + " answering on port " + port)
                .atMost(START_BUDGET)
                .pollInterval(Duration.ofMillis(100))
                .ignoreExceptionsInstanceOf(SQLException.class)
                .until(
                        () -> {
                            if (!process.isAlive()) {
                                throw new IllegalStateException("PostgreSQL exited: see " + log());
                            }
                            try (Connection c = connect("postgres")) {
                                return c.isValid(5);
                            }
                        });
    }

    private Path log() {
        return data.resolveSibling(data.getFileName() + ".log");
    }

    /**
     * Kills the server when the test JVM ends without closing it (a fork ended early, a close
     * skipped): as root the postmaster is runuser's child, and would outlive the JVM otherwise.
     */
    private void killOnExit() {
        Runtime.getRuntime()
                .addShutdownHook(
                        new Thread(
                                () -> {
                                    Process server = process; // the latest, after a restart
                                    if (server.isAlive()) {
                                        server.descendants()
                                                .forEach(ProcessHandle::destroyForcibly);
                                        server.destroyForcibly();
                                    }
                                },
                                "postgres-kill-on-exit"));
    }

    @Override
    public void close() {
        try {
            if (!process.isAlive()) {
                OsProcesses.run(List.of("rm", "-rf", data.toString(), log().toString()));
                return;
            }
            List<String> stop = new ArrayList<>(PostgresBinaries.asUnprivileged());
            stop.addAll(
                    List.of(
                            binaries.program("pg_ctl").toString(),
                            "stop",
                            "-D",
                            data.toString(),
                            "-m",
                            "fast",
                            "-w"));
            OsProcesses.run(stop);
            process.waitFor();
            OsProcesses.run(List.of("rm", "-rf", data.toString(), log().toString()));
        } catch (IOException e) {
            process.destroyForcibly();
            throw new UncheckedIOException("cannot stop PostgreSQL on port " + port, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }

    private static void copyTemplate(PostgresBinaries binaries, Path data) throws IOException {
        List<String> copy = new ArrayList<>(PostgresBinaries.asUnprivileged());
        copy.addAll(List.of("cp", "-a", binaries.template().toString(), data.toString()));
        OsProcesses.run(copy);
        if (!Files.isDirectory(data)) {
            throw new IOException("the template was not copied to " + data);
        }
    }

    @Override
    public String toString() {
        return "PostgreSQL " + version() + " on 127.0.0.1:" + port;
    }
}
