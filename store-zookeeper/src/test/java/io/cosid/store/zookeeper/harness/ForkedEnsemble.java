package io.cosid.store.zookeeper.harness;

import static org.awaitility.Awaitility.await;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.awaitility.core.TerminalFailureException;

/**
 * Real ZooKeeper servers as separate JVM processes, started from the Maven artifacts of one server
 * version: standalone (one member) or an ensemble. Free loopback ports, a temporary directory per
 * ensemble, and on {@link #close()} every process killed and every file removed. Each process also
 * dies on its own when the test JVM goes away ({@link ServerLauncher}).
 */
public final class ForkedEnsemble implements ZooKeeperServer {

    /** One member: its ports, directory and process. */
    private static final class Member {
        final int id;
        final int clientPort;
        final int peerPort;
        final int electionPort;
        final Path dir;
        Process process;

        Member(int id, Path dir) {
            this.id = id;
            this.dir = dir;
            // members are killed and restarted on these ports: keep them out of the ephemeral range
            this.clientPort = StablePorts.take();
            this.peerPort = StablePorts.take();
            this.electionPort = StablePorts.take();
        }
    }

    private final String version;
    private final Path root;
    private final List<Member> members = new ArrayList<>();
    private final int tickTime;

    /** Per member id, a libfaketime offset such as "-3s" that its wall clock runs at, or absent. */
    private final Map<Integer, String> clockOffsets = new ConcurrentHashMap<>();

    /** Set for a TLS-only server: no plain client port, only a secure one. */
    private TlsMaterial tls;

    private final Thread shutdownHook = new Thread(this::killAll, "zookeeper-ensemble-shutdown");

    private ForkedEnsemble(String version, int size, int tickTime) {
        this.version = version;
        this.tickTime = tickTime;
        try {
            this.root = Files.createTempDirectory("cosid-zk-" + version + "-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (int id = 1; id <= size; id++) {
            members.add(new Member(id, root.resolve("server-" + id)));
        }
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /**
     * Starts a standalone server and waits until it serves.
     *
     * @param version the server version, whose jars the build copied
     * @return the running server
     */
    public static ForkedEnsemble standalone(String version) {
        return start(version, 1, 500);
    }

    /**
     * Starts an ensemble and waits until every member serves.
     *
     * @param version the server version
     * @param size the number of members
     * @param tickTime ZooKeeper's tick in milliseconds (sessions last 2 to 20 ticks)
     * @return the running ensemble
     */
    public static ForkedEnsemble start(String version, int size, int tickTime) {
        return startWithClocks(version, size, tickTime, Map.of());
    }

    /**
     * Starts an ensemble whose members' wall clocks are shifted with libfaketime (Debian's {@code
     * faketime}), e.g. {@code Map.of(3, "-3s")}; their monotonic clocks stay real, so sessions and
     * elections are unaffected.
     *
     * @param version the server version
     * @param size the number of members
     * @param tickTime ZooKeeper's tick in milliseconds
     * @param clockOffsets offsets by member id
     * @return the running ensemble
     */
    public static ForkedEnsemble startWithClocks(
            String version, int size, int tickTime, Map<Integer, String> clockOffsets) {
        ForkedEnsemble ensemble = new ForkedEnsemble(version, size, tickTime);
        ensemble.clockOffsets.putAll(clockOffsets);
        try {
            for (Member m : ensemble.members) {
                ensemble.launch(m);
            }
            for (Member m : ensemble.members) {
                ensemble.awaitServing(m);
            }
            return ensemble;
        } catch (RuntimeException | Error e) {
            ensemble.close();
            throw e;
        }
    }

    /**
     * Starts a standalone server that accepts TLS only (a secure client port, no plain one), with
     * certificates made by the JDK's keytool; clients must present the client certificate.
     *
     * @param version the server version
     * @return the running server
     */
    public static ForkedEnsemble tlsStandalone(String version) {
        ForkedEnsemble ensemble = new ForkedEnsemble(version, 1, 500);
        try {
            ensemble.tls =
                    TlsMaterial.generate(Files.createDirectories(ensemble.root.resolve("tls")));
            ensemble.launch(ensemble.members.get(0));
            ensemble.awaitServing(ensemble.members.get(0));
            return ensemble;
        } catch (IOException e) {
            ensemble.close();
            throw new UncheckedIOException(e);
        } catch (RuntimeException | Error e) {
            ensemble.close();
            throw e;
        }
    }

    /**
     * The TLS material of a TLS-only server.
     *
     * @return the key and trust stores, or null for a plain server
     */
    public TlsMaterial tls() {
        return tls;
    }

    /**
     * libfaketime for multi-threaded programs, preloaded directly rather than through the {@code
     * faketime} wrapper: the wrapper keeps a semaphore per process id in /dev/shm that a process
     * killed with SIGKILL leaves behind, and a later process with that id then fails to start.
     */
    private static final Path LIBFAKETIME =
            Path.of("/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1");

    /**
     * Whether libfaketime is installed here (Debian package libfaketime, which package faketime
     * brings).
     *
     * @return true when clock offsets can be applied
     */
    public static boolean faketimeAvailable() {
        return Files.isReadable(LIBFAKETIME);
    }

    /**
     * Makes the process {@code builder} starts run with its wall clock shifted by {@code offset}
     * (libfaketime's notation, such as {@code "-3s"}); its monotonic clock stays real, so sessions,
     * elections and leases run on real time.
     *
     * @param builder the process's builder
     * @param offset the offset
     */
    public static void shiftWallClock(ProcessBuilder builder, String offset) {
        builder.environment().put("LD_PRELOAD", LIBFAKETIME.toString());
        builder.environment().put("FAKETIME", offset);
        builder.environment().put("FAKETIME_DONT_FAKE_MONOTONIC", "1");
    }

    /**
     * Freezes a member with SIGSTOP, as a long GC pause or a hung machine would.
     *
     * @param id the member's id
     */
    public void pause(int id) {
        signal(id, "STOP");
    }

    /**
     * Lets a frozen member run again with SIGCONT.
     *
     * @param id the member's id
     */
    public void resume(int id) {
        signal(id, "CONT");
    }

    private void signal(int id, String signal) {
        Member m = members.get(id - 1);
        try {
            Process kill =
                    new ProcessBuilder("kill", "-" + signal, Long.toString(m.process.pid()))
                            .inheritIO()
                            .start();
            if (kill.waitFor() != 0) {
                throw new IllegalStateException(
                        "kill -" + signal + " " + m.process.pid() + " failed");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Kills every member with SIGKILL (their data stays). */
    public void killEverything() {
        killAll();
    }

    /** Starts every member again on its data and waits until all serve. */
    public void restartEverything() {
        for (Member m : members) {
            launch(m);
        }
        for (Member m : members) {
            awaitServing(m);
        }
    }

    /**
     * The number of members.
     *
     * @return the ensemble's size
     */
    public int size() {
        return members.size();
    }

    @Override
    public String connectString() {
        return members.stream()
                .map(m -> "127.0.0.1:" + m.clientPort)
                .collect(Collectors.joining(","));
    }

    @Override
    public String version() {
        return version;
    }

    /**
     * The client port of a member.
     *
     * @param id the member's id, from 1
     * @return its port
     */
    public int clientPort(int id) {
        return members.get(id - 1).clientPort;
    }

    /**
     * The id of the current leader (or the standalone server).
     *
     * @return the member id
     */
    public int leader() {
        for (Member m : members) {
            String mode = FourLetterWords.mode(m.clientPort).orElse("");
            if (mode.equals("leader") || mode.equals("standalone")) {
                return m.id;
            }
        }
        throw new IllegalStateException("no member of " + connectString() + " is leader");
    }

    /**
     * Whether the ensemble has settled: exactly one member leads (or the standalone server serves)
     * and every other member follows. Right after a resumed or restarted member rejoins, it may
     * still call itself leader or be looking; clients pinned to it would fail until it settles.
     *
     * @return true when every member serves in its final role
     */
    public boolean allServing() {
        int leaders = 0;
        for (Member m : members) {
            String mode = FourLetterWords.mode(m.clientPort).orElse("");
            if (mode.equals("leader") || mode.equals("standalone")) {
                leaders++;
            } else if (!mode.equals("follower")) {
                return false;
            }
        }
        return leaders == 1;
    }

    /**
     * Kills a member with SIGKILL, as a crash would.
     *
     * @param id the member's id
     */
    public void kill(int id) {
        Member m = members.get(id - 1);
        if (m.process != null) {
            m.process.destroyForcibly();
            await().atMost(Duration.ofSeconds(20)).until(() -> !m.process.isAlive());
        }
    }

    /**
     * Starts a killed member again on its old data and waits until it serves.
     *
     * @param id the member's id
     */
    public void restart(int id) {
        Member m = members.get(id - 1);
        launch(m);
        awaitServing(m);
    }

    /**
     * Starts a killed member again on its old data with its wall clock shifted by libfaketime (e.g.
     * "-120s", "+0s"), and waits until it serves.
     *
     * @param id the member's id
     * @param offset the libfaketime offset its wall clock runs at from now on
     */
    public void restartWithClock(int id, String offset) {
        clockOffsets.put(id, offset);
        restart(id);
    }

    @Override
    public void close() {
        killAll();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // the JVM is shutting down; the hook runs killAll anyway
        }
        deleteTree(root);
    }

    private void killAll() {
        for (Member m : members) {
            if (m.process != null && m.process.isAlive()) {
                m.process.destroyForcibly();
                try {
                    m.process.waitFor();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    private void launch(Member m) {
        try {
            Path data = Files.createDirectories(m.dir.resolve("data"));
            StringBuilder cfg =
                    new StringBuilder()
                            .append("tickTime=")
                            .append(tickTime)
                            .append('\n')
                            .append("initLimit=10\nsyncLimit=5\n")
                            .append("dataDir=")
                            .append(data)
                            .append('\n')
                            .append(tls == null ? "clientPort=" : "secureClientPort=")
                            .append(m.clientPort)
                            .append('\n')
                            .append(
                                    tls == null
                                            ? "clientPortAddress=127.0.0.1\n"
                                            : "secureClientPortAddress=127.0.0.1\n")
                            .append("admin.enableServer=false\n")
                            .append("4lw.commands.whitelist=srvr,ruok,mntr,stat\n")
                            .append("maxClientCnxns=0\n");
            if (tls != null) {
                // unknown keys become zookeeper.* system properties of the server
                cfg.append("serverCnxnFactory=org.apache.zookeeper.server.NettyServerCnxnFactory\n")
                        .append("ssl.keyStore.location=")
                        .append(tls.serverKeyStore())
                        .append('\n')
                        .append("ssl.keyStore.password=")
                        .append(tls.password())
                        .append('\n')
                        .append("ssl.keyStore.type=PKCS12\n")
                        .append("ssl.trustStore.location=")
                        .append(tls.trustStore())
                        .append('\n')
                        .append("ssl.trustStore.password=")
                        .append(tls.password())
                        .append('\n')
                        .append("ssl.trustStore.type=PKCS12\n");
            }
            if (members.size() > 1) {
                for (Member peer : members) {
                    cfg.append("server.")
                            .append(peer.id)
                            .append("=127.0.0.1:")
                            .append(peer.peerPort)
                            .append(':')
                            .append(peer.electionPort)
                            .append('\n');
                }
                Files.writeString(data.resolve("myid"), Integer.toString(m.id));
            }
            Path cfgFile = m.dir.resolve("zoo.cfg");
            Files.writeString(cfgFile, cfg.toString());
            List<String> command = new ArrayList<>();
            command.addAll(
                    List.of(
                            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                            "-Xmx192m",
                            "-XX:+UseSerialGC",
                            // tests want fast starts (C1 only); benchmarks want a server at full
                            // speed
                            Boolean.getBoolean("cosid.zk.fullJit")
                                    ? "-XX:+TieredCompilation"
                                    : "-XX:TieredStopAtLevel=1",
                            "-Dzookeeper.admin.enableServer=false",
                            "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                            "-cp",
                            serverClassPath(version),
                            ServerLauncher.class.getName(),
                            cfgFile.toString()));
            ProcessBuilder builder = new ProcessBuilder(command);
            String offset = clockOffsets.get(m.id);
            if (offset != null) {
                shiftWallClock(builder, offset);
            }
            m.process =
                    builder.redirectErrorStream(true)
                            .redirectOutput(
                                    ProcessBuilder.Redirect.appendTo(
                                            m.dir.resolve("server.log").toFile()))
                            .start();
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot start ZooKeeper " + version + " member " + m.id, e);
        }
    }

    private void awaitServing(Member m) {
        try {
            await(
                            "ZooKeeper "
                                    + version
                                    + " member "
                                    + m.id
                                    + " on port "
                                    + m.clientPort
                                    + " to serve")
                    .atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(50))
                    .failFast("the server process exited", () -> !m.process.isAlive())
                    .until(
                            () ->
                                    (tls == null
                                                    ? FourLetterWords.mode(m.clientPort)
                                                    : FourLetterWords.mode(
                                                            m.clientPort, tls.clientContext()))
                                            .isPresent());
        } catch (TerminalFailureException e) {
            // the directory is gone once the ensemble closes: the log's end goes into the failure
            throw new IllegalStateException(
                    "ZooKeeper "
                            + version
                            + " member "
                            + m.id
                            + " exited while starting (exit code "
                            + m.process.exitValue()
                            + "); the end of its log:\n"
                            + tail(log(m.id), 40),
                    e);
        }
    }

    private static String tail(String text, int lines) {
        List<String> all = text.lines().toList();
        return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    }

    /**
     * The server's class path: that version's zookeeper and zookeeper-jute jars (copied by the
     * build) and the runtime libraries they share with the client, taken from the test class path.
     */
    static String serverClassPath(String version) {
        Path versionDir =
                Path.of(
                        System.getProperty("cosid.zk.servers.dir", "target/zookeeper-servers"),
                        version);
        if (!Files.isDirectory(versionDir)) {
            throw new IllegalStateException(
                    "no ZooKeeper "
                            + version
                            + " jars in "
                            + versionDir
                            + "; run the tests through Maven, which copies them");
        }
        List<String> entries = new ArrayList<>();
        try (Stream<Path> jars = Files.list(versionDir)) {
            jars.map(Path::toString).sorted().forEach(entries::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> shared =
                List.of(
                        "netty-",
                        "slf4j-api",
                        "slf4j-simple",
                        "audience-annotations",
                        "commons-io",
                        "metrics-core",
                        "snappy-java");
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator, -1)) {
            String name = Path.of(entry).getFileName().toString();
            if (shared.stream().anyMatch(name::startsWith)) {
                entries.add(entry);
            }
        }
        try {
            // the launcher itself: test-classes here, or this module's test jar in another module's
            // tests
            entries.add(
                    Path.of(
                                    ServerLauncher.class
                                            .getProtectionDomain()
                                            .getCodeSource()
                                            .getLocation()
                                            .toURI())
                            .toString());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        return String.join(File.pathSeparator, entries);
    }

    private static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String toString() {
        return "ZooKeeper "
                + version
                + " "
                + (members.size() == 1 ? "standalone" : members.size() + "-node")
                + " at "
                + connectString()
                + " ("
                + root
                + ")";
    }

    /** Reads a member's log, for failure messages. */
    String log(int id) {
        try {
            return Files.readString(
                    members.get(id - 1).dir.resolve("server.log"), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }
}
