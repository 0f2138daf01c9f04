package io.cosid.store.cosid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.cosid.store.SlotLease;
import io.cosid.store.Store;
import io.cosid.store.zookeeper.harness.ForkedEnsemble;
import io.cosid.store.zookeeper.harness.ZooKeeperServerExtension;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import me.ahoo.cosid.machine.InstanceId;
import me.ahoo.cosid.machine.MachineState;
import me.ahoo.cosid.snowflake.MillisecondSnowflakeId;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * CosId's own generator (what CosId's starter builds) on our machine-id distributor, with only the
 * {@code MachineIdDistributor} taken from cosid-store: process A generates and reverts, process B,
 * a JVM of its own whose wall clock libfaketime runs 1.5 s behind (inside the namespace's 2 s
 * tolerance), asks meanwhile until a machine id is free and takes A's as soon as it is released.
 * Nothing recorded what A stamped, so its release must declare nothing, and B must wait for A's
 * ceiling instead of stamping under A's timestamps.
 */
@DisplayName("A revert after CosId's own generator, then a second process 1.5 s behind")
class RevertAfterOwnGeneratorTest {

    @RegisterExtension
    static final ZooKeeperServerExtension SERVER = ZooKeeperServerExtension.primary();

    private static final String NS = "orders";
    private static final int BITS = 1;
    private static final Duration TTL = Duration.ofSeconds(2);
    private static final Duration TOLERANCE = Duration.ofSeconds(2);
    private static final InstanceId INSTANCE = InstanceId.of("order-service-0", true);
    private static final Pattern REPORT =
            Pattern.compile("machineId=(\\d+) first=(\\d+) last=(\\d+) count=(\\d+) floor=(\\d+)");

    private final Generating generating = new Generating();
    private final String root = "/cosid-" + UUID.randomUUID();
    private final Map<Process, BufferedReader> outputs = new HashMap<>();

    @AfterEach
    void close() {
        generating.close();
    }

    @Test
    @DisplayName(
            "the next holder's floor is the ceiling, and every ID of B is stamped after A's last"
                    + " (no timestamp of A's reused, no ID twice)")
    void nextHolderStampsAboveEveryUsedTimestamp() throws Exception {
        assumeTrue(
                ForkedEnsemble.faketimeAvailable(),
                "libfaketime (Debian package faketime) is not installed");
        Process b = startBehind("-1.5s", 20_000);
        try {
            Store a = generating.zooKeeper(SERVER.server().connectString(), root, "process-a");
            StoreMachineIdDistributor machines =
                    new StoreMachineIdDistributor(a.slots(), TOLERANCE);
            MachineState state = machines.distribute(NS, BITS, INSTANCE, TTL);
            // every other machine id held, so that B asks again until A's is free
            a.slots().acquire(NS, "another-service", Duration.ofMinutes(1));
            go(b);
            MillisecondSnowflakeId ids = new MillisecondSnowflakeId(state.getMachineId());
            long deadline = System.nanoTime() + Duration.ofSeconds(1).toNanos();
            long last = ids.generate();
            while (System.nanoTime() - deadline < 0) {
                last = ids.generate();
            }
            long lastOfA = ClockedSnowflakeId.timestampOf(last);
            SlotLease leaseOfA = machines.leaseOf(NS, INSTANCE);
            machines.revert(NS, INSTANCE);

            Matcher report = reportOf(b);
            // read from B's lease, not from the slot: B may take the slot before a read here
            assertThat(Long.parseLong(report.group(5)))
                    .as("B's floor: a release that knows of no stamp declares nothing")
                    .isEqualTo(leaseOfA.ceiling().toEpochMilli());
            assertThat(Integer.parseInt(report.group(1)))
                    .as("B takes A's machine id")
                    .isEqualTo(state.getMachineId());
            assertThat(Long.parseLong(report.group(2)))
                    .as("B's first timestamp against A's last")
                    .isGreaterThan(lastOfA)
                    .isGreaterThanOrEqualTo(leaseOfA.ceiling().toEpochMilli());
        } finally {
            b.destroyForcibly();
        }
    }

    /**
     * Starts {@link CosIdProcess} in a JVM whose wall clock libfaketime shifts by {@code offset},
     * and waits until its store is open.
     */
    private Process startBehind(String offset, int count) throws IOException {
        List<String> command = new ArrayList<>();
        command.addAll(
                List.of(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-Xmx128m",
                        "-XX:TieredStopAtLevel=1",
                        "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                        "-cp",
                        System.getProperty("java.class.path"),
                        CosIdProcess.class.getName(),
                        SERVER.server().connectString(),
                        root,
                        NS,
                        INSTANCE.getInstanceId(),
                        Integer.toString(BITS),
                        Long.toString(TTL.toMillis()),
                        Long.toString(TOLERANCE.toMillis()),
                        Integer.toString(count)));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        // only the wall clock is shifted: the lease's ttl runs on real monotonic time
        ForkedEnsemble.shiftWallClock(builder, offset);
        Process process = builder.start();
        BufferedReader out =
                new BufferedReader(
                        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        outputs.put(process, out);
        StringBuilder seen = new StringBuilder();
        for (String line = out.readLine(); line != null; line = out.readLine()) {
            if (line.equals("ready")) {
                return process;
            }
            seen.append(line).append('\n');
        }
        throw new AssertionError("process B ended before its store was open; output:\n" + seen);
    }

    private static void go(Process process) throws IOException {
        process.getOutputStream().write("go\n".getBytes(StandardCharsets.UTF_8));
        process.getOutputStream().flush();
    }

    /** Waits for the process to end and returns its report line. */
    private Matcher reportOf(Process process) throws IOException, InterruptedException {
        StringBuilder output = new StringBuilder();
        BufferedReader out = outputs.get(process);
        for (String line = out.readLine(); line != null; line = out.readLine()) {
            output.append(line).append('\n');
        }
        assertThat(process.waitFor(120, TimeUnit.SECONDS))
                .as("process B ended; output:%n%s", output)
                .isTrue();
        assertThat(process.exitValue()).as("process B's exit; output:%n%s", output).isZero();
        Matcher report = REPORT.matcher(output);
        assertThat(report.find()).as("process B's report in:%n%s", output).isTrue();
        return report;
    }
}
