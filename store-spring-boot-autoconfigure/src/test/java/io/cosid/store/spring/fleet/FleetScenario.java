package io.cosid.store.spring.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

/**
 * The end-to-end run of the starter's snowflake wiring, the same on every Spring Boot line: two
 * instances on one ZooKeeper server; one killed with SIGKILL and started again at once; the other
 * stopped and started again with its wall clock 1.5 s behind (inside the 2 s tolerance); every ID
 * any of them wrote is unique, and the restart stamps after everything its previous run stamped.
 */
public final class FleetScenario {

    /** Machine-id bits of the namespace: 4 machine ids, so that the restarts share them. */
    private static final int BITS = 2;

    private FleetScenario() {}

    /**
     * Runs the scenario against a ZooKeeper server.
     *
     * @param connectString the server
     * @param dir where the instances' files go
     * @throws Exception if an instance cannot be run or read
     */
    public static void run(String connectString, Path dir) throws Exception {
        String root = "/fleet-" + UUID.randomUUID();
        try (SnowflakeFleet fleet =
                new SnowflakeFleet(
                        dir,
                        List.of(
                                "--cosid.stores.main.type=zookeeper",
                                "--cosid.stores.main.timeout=10s",
                                "--cosid.stores.main.options.connectString=" + connectString,
                                "--cosid.stores.main.options.root=" + root,
                                "--cosid-store.machine.tolerance=2s",
                                "--cosid-store.machine.snowflake.namespace=orders",
                                "--cosid-store.machine.snowflake.machine-bit=" + BITS,
                                "--cosid-store.machine.snowflake.ttl=6s"))) {
            SnowflakeFleet.Instance a = fleet.start("a", "host-a", null);
            SnowflakeFleet.Instance b = fleet.start("b", "host-b", null);
            awaitWritten(a, 20_000);
            awaitWritten(b, 20_000);

            a.kill();
            SnowflakeFleet.Instance aAgain = fleet.start("a-again", "host-a", null);
            b.stop();
            long[] before = b.ids();
            SnowflakeFleet.Instance bBehind = fleet.start("b-behind", "host-b", "-1.5s");
            awaitWritten(aAgain, 20_000);
            awaitWritten(bBehind, 20_000);
            aAgain.stop();
            bBehind.stop();
            System.out.println("b-behind:\n" + bBehind.output());

            long[] restarted = bBehind.ids();
            assertThat(machineId(restarted[0]))
                    .as("host-b gets its machine id back after its release")
                    .isEqualTo(machineId(before[0]));
            assertThat(timestamp(restarted[0]))
                    .as("host-b's first timestamp with its clock 1.5 s behind, against its last")
                    .isGreaterThan(timestamp(before[before.length - 1]));
            long[] all = fleet.allIds();
            assertThat(all.length).isGreaterThanOrEqualTo(4 * 20_000);
            for (int i = 1; i < all.length; i++) {
                if (all[i] == all[i - 1]) {
                    throw new AssertionError("ID " + all[i] + " was handed out twice");
                }
            }
        }
    }

    private static void awaitWritten(SnowflakeFleet.Instance instance, long ids) {
        await().atMost(Duration.ofMinutes(2))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> written(instance) >= ids);
    }

    private static long written(SnowflakeFleet.Instance instance) {
        try {
            return instance.written();
        } catch (IOException e) {
            return 0;
        }
    }

    /** The machine id of an ID of CosId's default layout with {@link #BITS} machine bits. */
    private static long machineId(long id) {
        int sequenceBits = 63 - 41 - BITS;
        return (id >>> sequenceBits) & ((1L << BITS) - 1);
    }

    /** The timestamp (milliseconds since CosId's epoch) of an ID of CosId's default layout. */
    private static long timestamp(long id) {
        return id >>> (63 - 41);
    }
}
