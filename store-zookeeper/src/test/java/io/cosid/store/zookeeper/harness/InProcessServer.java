package io.cosid.store.zookeeper.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.apache.zookeeper.server.DataNode;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.ZooKeeperServer;

/**
 * A real standalone ZooKeeper server inside the test JVM, for what only its data tree allows:
 * putting a node at a data version that would otherwise take 2^32 writes to reach. Clients talk to
 * it over TCP like to any other.
 */
public final class InProcessServer implements AutoCloseable {

    private final Path dir;
    private final ZooKeeperServer server;
    private final ServerCnxnFactory connections;

    private InProcessServer(Path dir, ZooKeeperServer server, ServerCnxnFactory connections) {
        this.dir = dir;
        this.server = server;
        this.connections = connections;
    }

    /**
     * Starts a server on a free loopback port.
     *
     * @return the running server
     */
    public static InProcessServer start() {
        try {
            Path dir = Files.createTempDirectory("cosid-zk-inprocess-");
            ZooKeeperServer server =
                    new ZooKeeperServer(
                            dir.resolve("snap").toFile(), dir.resolve("log").toFile(), 500);
            ServerCnxnFactory connections =
                    ServerCnxnFactory.createFactory(
                            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 100);
            connections.startup(server);
            return new InProcessServer(dir, server, connections);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(
                    "interrupted while starting an in-process ZooKeeper server", e);
        }
    }

    /**
     * Where clients connect.
     *
     * @return {@code 127.0.0.1:port}
     */
    public String connectString() {
        return "127.0.0.1:" + connections.getLocalPort();
    }

    /**
     * Puts an existing node at a data version, as if it had been written that many times.
     *
     * @param path the node's path
     * @param version the data version it has from now on
     */
    public void setVersion(String path, int version) {
        DataNode node = server.getZKDatabase().getDataTree().getNode(path);
        if (node == null) {
            throw new IllegalArgumentException("no node " + path);
        }
        synchronized (node) {
            node.stat.setVersion(version);
        }
    }

    @Override
    public void close() {
        connections.shutdown();
        server.shutdown();
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
