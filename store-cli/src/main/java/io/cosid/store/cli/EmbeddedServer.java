package io.cosid.store.cli;

import io.cosid.store.StoreUnavailableException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A real server the tool runs for the demo and the {@code server} command, listening on a loopback
 * port, with its data in a directory that is either the user's (kept) or temporary (removed on
 * close and on exit, a signal during start-up included). One lock orders every step that creates,
 * stops or removes: the exit hook waits for a start-up in progress, and a start-up after the hook
 * ran creates nothing.
 */
abstract class EmbeddedServer implements AutoCloseable {

    private final String product;
    private final int port;
    private final boolean removeData;
    private final @Nullable Thread exitHook; // null: data kept

    private final Object lifecycle = new Object();

    private @Nullable Path dir; // guarded by lifecycle, as are the two below

    private boolean started;

    private boolean closed;

    EmbeddedServer(String product, int port, boolean removeData) {
        this.product = product;
        this.port = port;
        this.removeData = removeData;
        this.exitHook =
                removeData
                        ? new Thread(
                                this::close,
                                "cosid-store-embedded-"
                                        + product.toLowerCase(Locale.ROOT)
                                        + "-cleanup")
                        : null;
    }

    /** Creates the server's data directory's contents (if new) and starts it in {@code dir}. */
    abstract void startIn(Path dir) throws Exception;

    /** Stops the server {@link #startIn} started (or began to start). */
    abstract void stop();

    /** What a client names to reach the server: a connect string or a JDBC URL. */
    abstract String address();

    /** The server's product name: ZooKeeper or PostgreSQL. */
    final String product() {
        return product;
    }

    final int port() {
        return port;
    }

    /** The directory the server keeps its data (and log) in. */
    final Path dir() {
        synchronized (lifecycle) {
            return Objects.requireNonNull(dir, "not started");
        }
    }

    /** Whether the data directory goes when the server stops. */
    final boolean temporary() {
        return removeData;
    }

    /** A port to listen on: {@code requested}, refused when in use, or a free one for 0. */
    static int port(int requested, String product) {
        if (requested == 0) {
            try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                return s.getLocalPort();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        try (ServerSocket s = new ServerSocket(requested, 1, InetAddress.getLoopbackAddress())) {
            return requested;
        } catch (IOException e) {
            throw new IllegalArgumentException(
                    "port "
                            + requested
                            + " on 127.0.0.1 is in use (another "
                            + product
                            + "?); pick another with --port",
                    e);
        }
    }

    /**
     * Starts the server with its data in {@code dataDir}, or in a temporary directory when null; a
     * failed start stops what it began and removes what it created.
     */
    final void begin(@Nullable Path dataDir) {
        if (exitHook != null) {
            // before the directory exists: a JVM already shutting down refuses the hook, and then
            // nothing has been created that it would have to remove
            try {
                Runtime.getRuntime().addShutdownHook(exitHook);
            } catch (IllegalStateException shuttingDown) {
                throw notStarted("not started: the process is shutting down", shuttingDown);
            }
        }
        try {
            synchronized (lifecycle) {
                if (closed) {
                    throw notStarted("not started: the process is shutting down", null);
                }
                Path created;
                try {
                    created =
                            dataDir == null
                                    ? Files.createTempDirectory(
                                            "cosid-store-" + product.toLowerCase(Locale.ROOT) + "-")
                                    : Files.createDirectories(dataDir);
                } catch (IOException e) {
                    throw new IllegalArgumentException(
                            "cannot use data directory " + dataDir + ": " + e.getMessage(), e);
                }
                dir = created;
                started = true;
                startIn(created);
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        } catch (Exception e) {
            close();
            throw notStarted("it did not start: " + e.getMessage(), e);
        }
    }

    private StoreUnavailableException notStarted(String why, @Nullable Exception cause) {
        return new StoreUnavailableException(
                "embedded " + product + " on " + address(), why, cause);
    }

    /**
     * Stops the server and removes a temporary data directory; once, from any thread, the exit
     * hook's included.
     */
    @Override
    public final void close() {
        synchronized (lifecycle) {
            if (closed) {
                return;
            }
            closed = true;
            try {
                if (started) {
                    stop();
                }
            } finally {
                if (removeData) {
                    removeHook();
                    if (dir != null) {
                        Directories.delete(dir);
                    }
                }
            }
        }
    }

    private void removeHook() {
        if (exitHook == null) {
            return;
        }
        try {
            Runtime.getRuntime().removeShutdownHook(exitHook);
        } catch (IllegalStateException shuttingDown) {
            // the hooks are running: this close is one of them, or one is waiting for it
        }
    }
}
