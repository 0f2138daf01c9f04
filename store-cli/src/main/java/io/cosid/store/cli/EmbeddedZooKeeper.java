package io.cosid.store.cli;

import io.cosid.store.StoreUnavailableException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.apache.zookeeper.server.embedded.ExitHandler;
import org.apache.zookeeper.server.embedded.ZooKeeperServerEmbedded;

/**
 * A real ZooKeeper server in this process on a loopback port, for the demo and the {@code server}
 * command; temporary data is removed on close.
 */
final class EmbeddedZooKeeper implements AutoCloseable {

    private final Path dir;
    private final ZooKeeperServerEmbedded server;
    private final int port;
    private final boolean removeData;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final Thread exitHook; // null: data kept

    private EmbeddedZooKeeper(
            Path dir,
            ZooKeeperServerEmbedded server,
            int port,
            boolean removeData,
            Thread exitHook) {
        this.dir = dir;
        this.server = server;
        this.port = port;
        this.removeData = removeData;
        this.exitHook = exitHook;
    }

    /** A server on a free port with its data in a temporary directory, removed on close. */
    static EmbeddedZooKeeper start() {
        return start(0, null);
    }

    /**
     * A server on {@code port} (0: a free one); its data in {@code dataDir}, kept, or, when null,
     * in a temporary directory removed on close.
     */
    static EmbeddedZooKeeper start(int port, Path dataDir) {
        Path dir;
        try {
            dir =
                    dataDir == null
                            ? Files.createTempDirectory("cosid-store-zookeeper-")
                            : Files.createDirectories(dataDir);
        } catch (IOException e) {
            throw new IllegalArgumentException(
                    "cannot use data directory " + dataDir + ": " + e.getMessage(), e);
        }
        // a temporary directory is removed however the JVM ends, from its creation on: a signal
        // during the server's start-up (before any caller could register a hook) included
        AtomicReference<ZooKeeperServerEmbedded> started = new AtomicReference<>();
        Thread exitHook = null;
        if (dataDir == null) {
            exitHook =
                    new Thread(
                            () -> {
                                ZooKeeperServerEmbedded running = started.get();
                                if (running != null) {
                                    running.close();
                                }
                                delete(dir);
                            },
                            "cosid-store-embedded-zookeeper-cleanup");
            Runtime.getRuntime().addShutdownHook(exitHook);
        }
        int chosen = port == 0 ? freePort() : port;
        if (port != 0 && !available(port)) {
            throw new IllegalArgumentException(
                    "port "
                            + port
                            + " on 127.0.0.1 is in use (another ZooKeeper?); pick another with"
                            + " --port");
        }
        Properties config = new Properties();
        config.setProperty("clientPort", Integer.toString(chosen));
        config.setProperty("clientPortAddress", "127.0.0.1");
        config.setProperty("dataDir", dir.resolve("data").toString());
        config.setProperty("tickTime", "500");
        config.setProperty("admin.enableServer", "false");
        config.setProperty("4lw.commands.whitelist", "srvr,ruok,mntr");
        try {
            ZooKeeperServerEmbedded server =
                    ZooKeeperServerEmbedded.builder()
                            .baseDir(dir)
                            .configuration(config)
                            .exitHandler(ExitHandler.LOG_ONLY)
                            .build();
            started.set(server);
            server.start(30_000);
            return new EmbeddedZooKeeper(dir, server, chosen, dataDir == null, exitHook);
        } catch (Exception e) {
            ZooKeeperServerEmbedded built = started.get();
            if (built != null) {
                built.close();
            }
            if (dataDir == null) {
                removeHook(exitHook);
                delete(dir);
            }
            throw new StoreUnavailableException(
                    "embedded ZooKeeper on 127.0.0.1:" + chosen,
                    "it did not start: " + e.getMessage(),
                    e);
        }
    }

    String connectString() {
        return "127.0.0.1:" + port;
    }

    Path dir() {
        return dir;
    }

    /** Stops the server and removes a temporary data directory; once, from any thread. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            server.close();
        } finally {
            if (removeData) {
                removeHook(exitHook);
                delete(dir);
            }
        }
    }

    private static void removeHook(Thread hook) {
        if (hook == null) {
            return;
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hooks are running: this one removes the directory too
        }
    }

    private static boolean available(int port) {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void delete(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // best effort: a temp directory left behind is reported nowhere else
        }
    }
}
