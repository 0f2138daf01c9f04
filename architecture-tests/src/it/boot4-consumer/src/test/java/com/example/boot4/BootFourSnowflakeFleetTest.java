package com.example.boot4;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.cosid.store.spring.fleet.FleetScenario;
import io.cosid.store.spring.fleet.SnowflakeFleet;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.ZooKeeperServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The starter's snowflake wiring end to end on Spring Boot 4: the starter's own {@link
 * FleetScenario} (kill -9 and restart, a restart with the clock 1.5 s behind, no ID twice), its
 * Spring applications started in JVMs of their own on this build's Boot 4 class path, against a
 * ZooKeeper server embedded in this JVM.
 */
class BootFourSnowflakeFleetTest {

    @TempDir Path dir;
    private ServerCnxnFactory server;

    @BeforeEach
    void startServer() throws IOException, InterruptedException {
        Path data = Files.createTempDirectory("boot4-fleet-zk-");
        ZooKeeperServer zk =
                new ZooKeeperServer(
                        data.resolve("snap").toFile(), data.resolve("log").toFile(), 500);
        server =
                ServerCnxnFactory.createFactory(
                        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 100);
        server.startup(zk);
    }

    @AfterEach
    void stopServer() {
        server.shutdown();
    }

    @Test
    void killRestartAndClockBehind() throws Exception {
        assumeTrue(
                SnowflakeFleet.faketimeAvailable(),
                "libfaketime's faketime (Debian package faketime) is not installed");
        FleetScenario.run("127.0.0.1:" + server.getLocalPort(), dir);
    }
}
