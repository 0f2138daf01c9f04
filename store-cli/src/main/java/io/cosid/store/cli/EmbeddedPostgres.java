package io.cosid.store.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * A real PostgreSQL server the tool starts from the programs it carries ({@link PostgresPrograms})
 * on a loopback port, for the demo and the {@code server} command: one server, PostgreSQL's
 * defaults for durability, trust authentication for user {@code postgres} from 127.0.0.1 only, no
 * Unix socket. Its data directory is initialised on first use; a temporary one is removed on close.
 * As root the server runs as {@code nobody}, which must be able to reach the directory.
 */
final class EmbeddedPostgres extends EmbeddedServer {

    /** How long the server gets to answer after its start, and to end after a fast shutdown. */
    private static final long BUDGET_SECONDS = 60;

    /**
     * How long a fast shutdown may take before every process of the server is killed: the data
     * directory survives a kill (PostgreSQL replays its WAL at the next start).
     */
    private static final long SHUTDOWN_SECONDS = 15;

    private @Nullable Process process;

    private EmbeddedPostgres(int port, boolean removeData) {
        super("PostgreSQL", port, removeData);
    }

    /**
     * A server on {@code port} (0: a free one); its data in {@code dataDir} (initialised if empty,
     * kept), or, when null, in a temporary directory removed on close and on exit.
     */
    static EmbeddedPostgres start(int port, @Nullable Path dataDir) {
        EmbeddedPostgres pg = new EmbeddedPostgres(port(port, "PostgreSQL"), dataDir == null);
        pg.begin(dataDir);
        return pg;
    }

    @Override
    String address() {
        return jdbcUrl();
    }

    /** The URL of database {@code postgres} as user {@code postgres} (trusted, no password). */
    String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port() + "/postgres?user=postgres";
    }

    @Override
    void startIn(Path dir) throws IOException, InterruptedException {
        PostgresPrograms programs = PostgresPrograms.unpacked();
        if (PostgresPrograms.isRoot()) {
            handOver(dir);
        }
        Path data = dir.resolve("data");
        if (!Files.isRegularFile(data.resolve("PG_VERSION"))) {
            initdb(programs, data);
        }
        List<String> command = new ArrayList<>(PostgresPrograms.asUnprivileged());
        command.addAll(
                List.of(
                        programs.program("postgres").toString(),
                        "-D",
                        data.toString(),
                        "-p",
                        Integer.toString(port()),
                        "-c",
                        "listen_addresses=127.0.0.1",
                        "-c",
                        "unix_socket_directories="));
        Path log = dir.resolve("postgres.log");
        process =
                new ProcessBuilder(command)
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                        .start();
        awaitAnswer(process, log);
    }

    /**
     * Gives {@code dir} to the user PostgreSQL runs as under root; refuses a directory that user
     * cannot reach (one under root's home, say).
     */
    private static void handOver(Path dir) throws IOException, InterruptedException {
        run(List.of("chown", "-R", PostgresPrograms.UNPRIVILEGED, dir.toString()));
        List<String> canWrite = new ArrayList<>(PostgresPrograms.asUnprivileged());
        canWrite.addAll(List.of("test", "-w", dir.toString()));
        if (!runs(canWrite)) {
            throw new IllegalArgumentException(
                    "PostgreSQL refuses to run as root, so the tool runs it as "
                            + PostgresPrograms.UNPRIVILEGED
                            + ", who cannot reach "
                            + dir
                            + "; pick a directory under /tmp or /var/tmp");
        }
    }

    /** Initialises a data directory: user {@code postgres}, trusted, UTF-8, locale C. */
    private void initdb(PostgresPrograms programs, Path data)
            throws IOException, InterruptedException {
        List<String> initdb = new ArrayList<>(PostgresPrograms.asUnprivileged());
        initdb.addAll(
                List.of(
                        programs.program("initdb").toString(),
                        "-D",
                        data.toString(),
                        "-U",
                        "postgres",
                        "-A",
                        "trust",
                        "-E",
                        "UTF8",
                        "--locale=C"));
        if (temporary()) {
            initdb.add("--no-sync"); // gone on exit: nothing to make durable
        }
        run(initdb);
    }

    /** Waits until the server takes a connection; fails with its log's end if it ends first. */
    private void awaitAnswer(Process server, Path log) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(BUDGET_SECONDS);
        while (true) {
            try (Connection c = DriverManager.getConnection(jdbcUrl())) {
                return;
            } catch (SQLException notYet) {
                if (!server.isAlive() || System.nanoTime() > deadline) {
                    throw new IOException(
                            (server.isAlive()
                                            ? "no answer in " + BUDGET_SECONDS + " s"
                                            : "the server ended")
                                    + "; the end of its log ("
                                    + log
                                    + "):\n"
                                    + tail(log),
                            notYet);
                }
                Thread.sleep(50);
            }
        }
    }

    /**
     * A fast shutdown (SIGINT to the postmaster: connections ended, the checkpoint written), after
     * continuing every process of the server in case one was stopped by hand, then, if it has not
     * ended within {@value #SHUTDOWN_SECONDS} s, every process killed.
     */
    @Override
    void stop() {
        Process server = process;
        if (server == null) {
            return;
        }
        try {
            // a process stopped by hand (kill -STOP) acts on no signal until it is continued:
            // runuser left stopped would never reap the postmaster, and the wait would run out
            List<String> cont =
                    new ArrayList<>(List.of("kill", "-CONT", Long.toString(server.pid())));
            server.descendants().forEach(d -> cont.add(Long.toString(d.pid())));
            runs(cont);
            for (ProcessHandle p : postmasters(server)) {
                runs(List.of("kill", "-INT", Long.toString(p.pid())));
            }
            if (server.waitFor(SHUTDOWN_SECONDS, TimeUnit.SECONDS)) {
                return;
            }
        } catch (IOException e) {
            // no signal sent: the kill below ends it
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        server.descendants().forEach(ProcessHandle::destroyForcibly);
        server.destroyForcibly();
    }

    /** The postmaster: the process started, or, as root, the child of {@code runuser}. */
    private static List<ProcessHandle> postmasters(Process server) {
        return PostgresPrograms.isRoot() ? server.children().toList() : List.of(server.toHandle());
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException e) {
            return "(unreadable: " + e.getMessage() + ")";
        }
    }

    /** Runs a short command; fails with its output unless it ends well. */
    private static void run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(BUDGET_SECONDS, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IOException(String.join(" ", command) + " failed:\n" + output.strip());
        }
    }

    /** Whether a short command ends well. */
    private static boolean runs(List<String> command) throws IOException, InterruptedException {
        Process p =
                new ProcessBuilder(command)
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                        .start();
        return p.waitFor(BUDGET_SECONDS, TimeUnit.SECONDS) && p.exitValue() == 0;
    }
}
