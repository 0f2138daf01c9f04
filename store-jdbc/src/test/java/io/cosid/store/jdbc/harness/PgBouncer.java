package io.cosid.store.jdbc.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.awaitility.Awaitility;

/**
 * A real PgBouncer (Debian's {@code pgbouncer}) in front of one database of a {@link
 * PostgresServer}, in transaction pooling mode: each transaction of a client may run on another
 * server connection, so nothing a session sets survives it. As root it runs as {@code nobody}, as
 * PgBouncer refuses root.
 */
public final class PgBouncer implements AutoCloseable {

    private static final Path PROGRAM = Path.of("/usr/sbin/pgbouncer");

    private final Path dir;
    private final int port;
    private final String database;
    private final Process process;

    private PgBouncer(Path dir, int port, String database, Process process) {
        this.dir = dir;
        this.port = port;
        this.database = database;
        this.process = process;
    }

    /**
     * Whether PgBouncer is installed here.
     *
     * @return whether its program is there
     */
    public static boolean installed() {
        return Files.isExecutable(PROGRAM);
    }

    /**
     * Starts PgBouncer in transaction mode before {@code database} of {@code server}, with at most
     * {@code serverConnections} connections to it.
     *
     * @param server the server
     * @param database the database clients name
     * @param serverConnections the pool's size toward the server
     * @return the running PgBouncer, answering
     */
    public static PgBouncer start(PostgresServer server, String database, int serverConnections) {
        try {
            Path dir = PostgresBinaries.runs().resolve("pgbouncer-" + UUID.randomUUID());
            Files.createDirectories(dir);
            int port = OsProcesses.freePort();
            Files.writeString(dir.resolve("users.txt"), "\"postgres\" \"\"\n");
            Files.writeString(
                    dir.resolve("pgbouncer.ini"),
                    String.join(
                            "\n",
                            "[databases]",
                            target(database, server),
                            "[pgbouncer]",
                            "listen_addr = 127.0.0.1",
                            "listen_port = " + port,
                            "unix_socket_dir =",
                            "auth_type = trust",
                            "auth_file = " + dir.resolve("users.txt"),
                            "pool_mode = transaction",
                            "default_pool_size = " + serverConnections,
                            "max_client_conn = 500",
                            "logfile = " + dir.resolve("pgbouncer.log"),
                            "pidfile = " + dir.resolve("pgbouncer.pid"),
                            ""));
            if (PostgresBinaries.isRoot()) {
                OsProcesses.run(
                        List.of("chown", "-R", PostgresBinaries.UNPRIVILEGED, dir.toString()));
            }
            List<String> command = new ArrayList<>(PostgresBinaries.asUnprivileged());
            command.addAll(List.of(PROGRAM.toString(), dir.resolve("pgbouncer.ini").toString()));
            Process process =
                    new ProcessBuilder(command)
                            .redirectErrorStream(true)
                            .redirectOutput(dir.resolve("stdout.log").toFile())
                            .start();
            PgBouncer bouncer = new PgBouncer(dir, port, database, process);
            bouncer.awaitAnswer();
            return bouncer;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start PgBouncer", e);
        }
    }

    /** The {@code [databases]} line that leads {@code database} to {@code server}. */
    private static String target(String database, PostgresServer server) {
        return database
                + " = host=127.0.0.1 port="
                + server.port()
                + " dbname="
                + database
                + " user=postgres";
    }

    /**
     * Leads the database to {@code server} from now on, as an operator repoints PgBouncer after a
     * failover: the configuration rewritten and reloaded (SIGHUP), clients' connections kept.
     *
     * @param server the server clients reach from now on
     */
    public void repoint(PostgresServer server) {
        try {
            Path ini = dir.resolve("pgbouncer.ini");
            String text = Files.readString(ini);
            Files.writeString(
                    ini,
                    text.replaceFirst("(?m)^" + database + " = .*$", target(database, server)));
            String pid = Files.readString(dir.resolve("pgbouncer.pid")).trim();
            OsProcesses.run(List.of("kill", "-HUP", pid));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot repoint PgBouncer", e);
        }
    }

    /**
     * The JDBC URL of the database through PgBouncer, with the driver's server-side prepared
     * statements off ({@code prepareThreshold=0}): they are session state, which transaction
     * pooling does not keep (PgBouncer before 1.21 has no support for them).
     *
     * @return the URL
     */
    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:"
                + port
                + "/"
                + database
                + "?user=postgres&prepareThreshold=0";
    }

    private void awaitAnswer() {
        Awaitility.await("PgBouncer answering on port " + port)
                .atMost(Duration.ofMinutes(1))
                .pollInterval(Duration.ofMillis(100))
                .ignoreExceptionsInstanceOf(SQLException.class)
                .until(
                        () -> {
                            if (!process.isAlive()) {
                                throw new IllegalStateException(
                                        "PgBouncer exited: see " + dir.resolve("stdout.log"));
                            }
                            try (Connection c = DriverManager.getConnection(jdbcUrl())) {
                                return c.isValid(5);
                            }
                        });
    }

    @Override
    public void close() {
        try {
            OsProcesses.end(process);
            OsProcesses.run(List.of("rm", "-rf", dir.toString()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return "PgBouncer on 127.0.0.1:" + port;
    }
}
