package io.cosid.store.cli;

import io.cosid.store.StoreUnavailableException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Objects;
import java.util.Properties;
import java.util.stream.Stream;
import org.apache.zookeeper.server.embedded.ExitHandler;
import org.apache.zookeeper.server.embedded.ZooKeeperServerEmbedded;
import org.jspecify.annotations.Nullable;

/**
 * A real ZooKeeper server in this process on a loopback port, for the demo and the {@code server}
 * command; temporary data is removed on close.
 */
final class EmbeddedZooKeeper implements AutoCloseable {

    private final int port;
    private final boolean removeData;
    private final @Nullable Thread exitHook; // null: data kept

    // One lock for every step that creates, stops or removes: the exit hook waits for a start-up
    // in progress, and a start-up after the hook ran creates nothing.
    private final Object lifecycle = new Object();

    private @Nullable Path dir; // guarded by lifecycle, as are the two below

    private @Nullable ZooKeeperServerEmbedded server;

    private boolean closed;

    private EmbeddedZooKeeper(int port, boolean removeData) {
        this.port = port;
        this.removeData = removeData;
        this.exitHook =
                removeData
                        ? new Thread(this::close, "cosid-store-embedded-zookeeper-cleanup")
                        : null;
    }

    /** A server on a free port with its data in a temporary directory, removed on close. */
    static EmbeddedZooKeeper start() {
        return start(0, null);
    }

    /**
     * A server on {@code port} (0: a free one); its data in {@code dataDir}, kept, or, when null,
     * in a temporary directory removed on close and on exit, a signal during start-up included.
     */
    static EmbeddedZooKeeper start(int port, @Nullable Path dataDir) {
        if (port != 0 && !available(port)) {
            throw new IllegalArgumentException(
                    "port "
                            + port
                            + " on 127.0.0.1 is in use (another ZooKeeper?); pick another with"
                            + " --port");
        }
        EmbeddedZooKeeper zk =
                new EmbeddedZooKeeper(port == 0 ? freePort() : port, dataDir == null);
        if (zk.exitHook != null) {
            // before the directory exists: a JVM already shutting down refuses the hook, and then
            // nothing has been created that it would have to remove
            try {
                Runtime.getRuntime().addShutdownHook(zk.exitHook);
            } catch (IllegalStateException shuttingDown) {
                throw new StoreUnavailableException(
                        "embedded ZooKeeper on " + zk.connectString(),
                        "not started: the process is shutting down",
                        shuttingDown);
            }
        }
        try {
            zk.open(dataDir);
            return zk;
        } catch (RuntimeException e) {
            zk.close();
            throw e;
        }
    }

    private void open(@Nullable Path dataDir) {
        synchronized (lifecycle) {
            if (closed) {
                throw new StoreUnavailableException(
                        "embedded ZooKeeper on " + connectString(),
                        "not started: the process is shutting down",
                        null);
            }
            Path created;
            try {
                created =
                        dataDir == null
                                ? Files.createTempDirectory("cosid-store-zookeeper-")
                                : Files.createDirectories(dataDir);
            } catch (IOException e) {
                throw new IllegalArgumentException(
                        "cannot use data directory " + dataDir + ": " + e.getMessage(), e);
            }
            dir = created;
            Properties config = new Properties();
            config.setProperty("clientPort", Integer.toString(port));
            config.setProperty("clientPortAddress", "127.0.0.1");
            config.setProperty("dataDir", created.resolve("data").toString());
            config.setProperty("tickTime", "500");
            config.setProperty("admin.enableServer", "false");
            config.setProperty("4lw.commands.whitelist", "srvr,ruok,mntr");
            try {
                ZooKeeperServerEmbedded built =
                        ZooKeeperServerEmbedded.builder()
                                .baseDir(created)
                                .configuration(config)
                                .exitHandler(ExitHandler.LOG_ONLY)
                                .build();
                server = built;
                built.start(30_000);
            } catch (Exception e) {
                throw new StoreUnavailableException(
                        "embedded ZooKeeper on " + connectString(),
                        "it did not start: " + e.getMessage(),
                        e);
            }
        }
    }

    String connectString() {
        return "127.0.0.1:" + port;
    }

    Path dir() {
        synchronized (lifecycle) {
            return Objects.requireNonNull(dir, "not started");
        }
    }

    /**
     * Stops the server and removes a temporary data directory; once, from any thread, the exit
     * hook's included.
     */
    @Override
    public void close() {
        synchronized (lifecycle) {
            if (closed) {
                return;
            }
            closed = true;
            try {
                if (server != null) {
                    server.close();
                }
            } finally {
                if (removeData) {
                    removeHook(exitHook);
                    if (dir != null) {
                        delete(dir);
                    }
                }
            }
        }
    }

    private static void removeHook(@Nullable Thread hook) {
        if (hook == null) {
            return;
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hooks are running: this close is one of them, or one is waiting for it
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
