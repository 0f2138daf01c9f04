package com.example.boot4;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.ZooKeeperServer;

/** A ZooKeeper server embedded in the test's JVM, on a free loopback port. */
final class EmbeddedServer implements AutoCloseable {

    private final ServerCnxnFactory factory;

    EmbeddedServer() throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("boot4-zk-");
        ZooKeeperServer zk =
                new ZooKeeperServer(dir.resolve("snap").toFile(), dir.resolve("log").toFile(), 500);
        factory =
                ServerCnxnFactory.createFactory(
                        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 100);
        factory.startup(zk);
    }

    String connectString() {
        return "127.0.0.1:" + factory.getLocalPort();
    }

    /** Stops the server (also in the middle of a test); a second call does nothing. */
    @Override
    public void close() {
        factory.shutdown();
    }
}
