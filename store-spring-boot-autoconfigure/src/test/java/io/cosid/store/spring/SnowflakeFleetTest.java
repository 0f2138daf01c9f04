package io.cosid.store.spring;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.cosid.store.spring.fleet.FleetScenario;
import io.cosid.store.spring.fleet.SnowflakeFleet;
import io.cosid.store.zookeeper.harness.ZooKeeperServerExtension;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The starter's snowflake wiring end to end on Spring Boot 3: Spring applications in JVMs of their
 * own on a real ZooKeeper server ({@link FleetScenario}; the Boot 4 consumer build runs the same).
 */
@DisplayName("Snowflake IDs from Spring applications on one ZooKeeper server")
class SnowflakeFleetTest {

    @RegisterExtension
    static final ZooKeeperServerExtension SERVER = ZooKeeperServerExtension.primary();

    @TempDir Path dir;

    @Test
    @DisplayName(
            "kill -9 of one instance and its restart, a restart of another with its clock 1.5 s"
                    + " behind: no ID twice, the restart stamps after its previous run")
    void killRestartAndClockBehind() throws Exception {
        assumeTrue(
                SnowflakeFleet.faketimeAvailable(),
                "libfaketime's faketime (Debian package faketime) is not installed");
        FleetScenario.run(SERVER.server().connectString(), dir);
    }
}
