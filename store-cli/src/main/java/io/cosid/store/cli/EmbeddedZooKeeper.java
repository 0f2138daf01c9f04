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
import java.util.stream.Stream;
import org.apache.zookeeper.server.embedded.ExitHandler;
import org.apache.zookeeper.server.embedded.ZooKeeperServerEmbedded;

/**
 * A real ZooKeeper server in this process on a free loopback port; its data is removed on close.
 */
final class EmbeddedZooKeeper implements AutoCloseable {

    private final Path dir;
    private final ZooKeeperServerEmbedded server;
    private final int port;

    private EmbeddedZooKeeper(Path dir, ZooKeeperServerEmbedded server, int port) {
        this.dir = dir;
        this.server = server;
        this.port = port;
    }

    static EmbeddedZooKeeper start() {
        Path dir;
        try {
            dir = Files.createTempDirectory("cosid-store-demo-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        int port = freePort();
        Properties config = new Properties();
        config.setProperty("clientPort", Integer.toString(port));
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
            server.start(30_000);
            return new EmbeddedZooKeeper(dir, server, port);
        } catch (Exception e) {
            delete(dir);
            throw new StoreUnavailableException(
                    "embedded ZooKeeper on 127.0.0.1:" + port,
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

    @Override
    public void close() {
        try {
            server.close();
        } finally {
            delete(dir);
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
