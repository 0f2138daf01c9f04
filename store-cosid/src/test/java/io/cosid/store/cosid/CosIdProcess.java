package io.cosid.store.cosid;

import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.Stores;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import me.ahoo.cosid.machine.InstanceId;
import me.ahoo.cosid.machine.MachineIdOverflowException;
import me.ahoo.cosid.machine.MachineState;
import me.ahoo.cosid.snowflake.MillisecondSnowflakeId;

/**
 * One CosId application in a JVM of its own, for tests that need a process with another wall clock
 * (started under libfaketime): it takes a machine id from {@link StoreMachineIdDistributor} on a
 * ZooKeeper store, generates IDs with CosId's own {@link MillisecondSnowflakeId} (what CosId's
 * starter builds; asking again while every machine id is held), prints what it generated and
 * reverts, as {@code CosIdLifecycleMachineIdDistributor.stop()} does.
 *
 * <p>Arguments: connect string, root, namespace, instance id, machine bits, ttl ms, tolerance ms,
 * count. Prints {@code ready} once its store is open, then waits for a line on standard input
 * before it asks for the machine id. Prints one line {@code machineId=<id> first=<ms> last=<ms>
 * count=<n> floor=<ms>}, the timestamps of its first and last ID.
 */
public final class CosIdProcess {

    private CosIdProcess() {}

    /**
     * Runs the application once.
     *
     * @param args see the class comment
     */
    public static void main(String[] args) throws IOException {
        String connectString = args[0];
        String root = args[1];
        String namespace = args[2];
        InstanceId instance = InstanceId.of(args[3], true);
        int bits = Integer.parseInt(args[4]);
        Duration ttl = Duration.ofMillis(Long.parseLong(args[5]));
        Duration tolerance = Duration.ofMillis(Long.parseLong(args[6]));
        int count = Integer.parseInt(args[7]);
        try (Store store =
                Stores.open(
                        StoreConfig.of("cosid-process", "zookeeper")
                                .withTimeout(Duration.ofSeconds(10))
                                .withOption("connectString", connectString)
                                .withOption("root", root))) {
            StoreMachineIdDistributor machines =
                    new StoreMachineIdDistributor(store.slots(), tolerance);
            // Warmed up on a namespace of its own (a cold JVM's first distribute loads classes for
            // a second or more, which would hide the window in question), and started ahead, so
            // that the test decides when it starts asking.
            MachineState warm = machines.distribute(namespace + "-warm-up", 1, instance, ttl);
            new MillisecondSnowflakeId(warm.getMachineId()).generate();
            machines.revert(namespace + "-warm-up", instance);
            System.out.println("ready");
            System.out.flush();
            if (new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))
                            .readLine()
                    == null) {
                return;
            }
            MachineState state = distributeOnceFree(machines, namespace, bits, instance, ttl);
            MillisecondSnowflakeId ids = new MillisecondSnowflakeId(state.getMachineId());
            long first = ids.generate();
            long last = first;
            for (int i = 1; i < count; i++) {
                last = ids.generate();
            }
            long floor = machines.leaseOf(namespace, instance).floor().toEpochMilli();
            machines.revert(namespace, instance);
            System.out.println(
                    "machineId="
                            + state.getMachineId()
                            + " first="
                            + ClockedSnowflakeId.timestampOf(first)
                            + " last="
                            + ClockedSnowflakeId.timestampOf(last)
                            + " count="
                            + count
                            + " floor="
                            + floor);
        }
    }

    /**
     * Asks until a machine id is free, as an instance restarting in a loop would: the first ID
     * comes within a round trip or two of another instance's release.
     */
    private static MachineState distributeOnceFree(
            StoreMachineIdDistributor machines,
            String namespace,
            int bits,
            InstanceId instance,
            Duration ttl) {
        while (true) {
            try {
                return machines.distribute(namespace, bits, instance, ttl);
            } catch (MachineIdOverflowException allHeld) {
                Thread.onSpinWait();
            }
        }
    }
}
