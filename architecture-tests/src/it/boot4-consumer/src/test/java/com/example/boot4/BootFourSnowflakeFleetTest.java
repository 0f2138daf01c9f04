package com.example.boot4;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.cosid.store.spring.fleet.FleetScenario;
import io.cosid.store.spring.fleet.SnowflakeFleet;
import java.io.IOException;
import java.nio.file.Path;
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
    private EmbeddedServer server;

    @BeforeEach
    void startServer() throws IOException, InterruptedException {
        server = new EmbeddedServer();
    }

    @AfterEach
    void stopServer() {
        server.close();
    }

    @Test
    void killRestartAndClockBehind() throws Exception {
        assumeTrue(
                SnowflakeFleet.faketimeAvailable(),
                "libfaketime's faketime (Debian package faketime) is not installed");
        FleetScenario.run(server.connectString(), dir);
    }
}
