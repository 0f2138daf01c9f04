package io.cosid.store.benchmarks;

import io.cosid.store.zookeeper.harness.ForkedEnsemble;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The side-by-side harness: ours, Curator's {@code DistributedAtomicLong} and a bare versioned
 * {@code setData}, in one run on one real ZooKeeper server that the harness starts, plus slot
 * leases, 1024 instances starting together, and the in-memory store. Prints one table per scenario
 * and writes {@code results.md} and {@code throughput-vs-clients.png} and {@code
 * instances-starting-together.png} to the output directory.
 *
 * <p>Arguments: {@code --seconds S} per measured run (default 5), {@code --warmup S} (default 2),
 * {@code --clients 1,2,4,8,16}, {@code --distances 1,2,5} (one-way milliseconds added for the
 * further clients), {@code --instances 1024}, {@code --held 1000} (slots held in the
 * crowded-namespace case), {@code --kills 10} (leader kills of the failover scenario), {@code --out
 * DIR}, {@code --version 3.9.5}, {@code --only
 * single,contention,slots,instances,failover,inmemory}. Every range handed out in a run is checked:
 * a duplicate ends the run with an exception.
 */
public final class SideBySide {

    static final long STEP = 100;
    static final Duration TTL = Duration.ofSeconds(30);

    /** What one run measures. */
    record Settings(
            Duration run,
            Duration warmup,
            List<Integer> clients,
            List<Integer> distances,
            int instances,
            int held,
            int kills,
            Path out,
            String version,
            Set<String> scenarios) {

        static final List<String> SCENARIOS =
                List.of(
                        "single",
                        "contention",
                        "slots",
                        "instances",
                        "cosid",
                        "failover",
                        "inmemory");

        static Settings parse(String... args) {
            Duration run = Duration.ofSeconds(5);
            Duration warmup = Duration.ofSeconds(2);
            List<Integer> clients = List.of(1, 2, 4, 8, 16);
            List<Integer> distances = List.of(1, 2, 5);
            int instances = 1024;
            int held = 1000;
            int kills = 10;
            Path out = Path.of("target", "benchmarks");
            String version = System.getProperty("cosid.zk.primary", "3.9.5");
            Set<String> scenarios = new LinkedHashSet<>(SCENARIOS);
            for (int i = 0; i < args.length; i += 2) { // each option takes one value
                String value = i + 1 < args.length ? args[i + 1] : null;
                switch (args[i]) {
                    case "--seconds" -> run = seconds(args[i], value);
                    case "--warmup" -> warmup = seconds(args[i], value);
                    case "--clients" -> clients = numbers(args[i], value);
                    case "--distances" -> distances = numbers(args[i], value);
                    case "--instances" -> instances = Integer.parseInt(required(args[i], value));
                    case "--held" -> held = Integer.parseInt(required(args[i], value));
                    case "--kills" -> kills = Integer.parseInt(required(args[i], value));
                    case "--out" -> out = Path.of(required(args[i], value));
                    case "--version" -> version = required(args[i], value);
                    case "--only" -> {
                        scenarios =
                                new LinkedHashSet<>(
                                        Arrays.asList(required(args[i], value).split(",", -1)));
                        if (!SCENARIOS.containsAll(scenarios)) {
                            throw new IllegalArgumentException(
                                    "--only takes some of " + SCENARIOS + ", not " + value);
                        }
                    }
                    default ->
                            throw new IllegalArgumentException(
                                    "unknown argument '"
                                            + args[i]
                                            + "'; known: --seconds, --warmup, --clients,"
                                            + " --distances, --instances, --held, --kills, --out,"
                                            + " --version,"
                                            + " --only");
                }
            }
            if (kills < 1) {
                throw new IllegalArgumentException("--kills must be at least 1, not " + kills);
            }
            if (held < 0 || held >= 1024 || instances < 1 || instances > 1024) {
                throw new IllegalArgumentException(
                        "--held must be 0..1023 and --instances 1..1024 (one 1024-slot"
                                + " namespace each)");
            }
            return new Settings(
                    run, warmup, clients, distances, instances, held, kills, out, version,
                    scenarios);
        }

        private static List<Integer> numbers(String name, @Nullable String value) {
            return Arrays.stream(required(name, value).split(",", -1))
                    .map(String::trim)
                    .map(Integer::valueOf)
                    .toList();
        }

        private static String required(String name, @Nullable String value) {
            if (value == null) {
                throw new IllegalArgumentException(name + " needs a value");
            }
            return value;
        }

        private static Duration seconds(String name, @Nullable String value) {
            return Duration.ofMillis(Math.round(Double.parseDouble(required(name, value)) * 1000));
        }
    }

    private final Settings settings;
    private final List<Table> tables = new ArrayList<>();
    private final List<String> verdicts = new ArrayList<>();

    /** The standalone server of the scenarios that share one, while they run. */
    private @Nullable ForkedEnsemble server;

    private @Nullable ServerCounters serverCounters;

    private SideBySide(Settings settings) {
        this.settings = settings;
    }

    /** What this run measures. */
    Settings settings() {
        return settings;
    }

    /** Adds a verdict a scenario worded itself. */
    void addVerdict(String verdict) {
        verdicts.add(verdict);
    }

    /** Adds verdicts a scenario made itself. */
    void addVerdicts(List<String> more) {
        verdicts.addAll(more);
    }

    String connectString() {
        return Objects.requireNonNull(server, "no shared server is running").connectString();
    }

    int clientPort() {
        return Objects.requireNonNull(server, "no shared server is running").clientPort(1);
    }

    ServerCounters counters() {
        return Objects.requireNonNull(serverCounters, "no shared server is running");
    }

    /**
     * Runs the harness.
     *
     * @param args see the class comment
     */
    public static void main(String[] args) {
        run(Settings.parse(args));
    }

    static Path run(Settings settings) {
        SideBySide harness = new SideBySide(settings);
        try (ForkedEnsemble server = ForkedEnsemble.standalone(settings.version())) {
            harness.server = server;
            harness.serverCounters = new ServerCounters(server.clientPort(1));
            Set<String> only = settings.scenarios();
            if (only.contains("single")) {
                new SingleClient(harness).singleClient();
            }
            if (only.contains("contention")) {
                new Contention(harness).contention();
            }
            if (only.contains("slots")) {
                new SlotScenario(harness).slots();
            }
            if (only.contains("instances")) {
                new InstancesTogether(harness).instancesStartingTogether();
            }
            if (only.contains("cosid")) {
                new OwnHarnessScenarios(harness).cosIdSegments();
            }
        } finally {
            harness.server = null;
            harness.serverCounters = null;
        }
        if (settings.scenarios().contains("failover")) {
            new OwnHarnessScenarios(harness).failover();
        }
        if (settings.scenarios().contains("inmemory")) {
            new OwnHarnessScenarios(harness).inMemory();
        }
        return harness.write();
    }

    static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    double seconds() {
        return settings.run().toNanos() / 1e9;
    }

    void publish(Table table) {
        tables.add(table);
        System.out.println(table.text());
    }

    void verdict(String what, double value, String unit, boolean met) {
        verdicts.add(
                String.format(
                        Locale.ROOT, "%-4s %s: %.2f%s", met ? "MET" : "MISS", what, value, unit));
    }

    Path outDir() {
        try {
            return Files.createDirectories(settings.out());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Path write() {
        StringBuilder text = new StringBuilder(machine()).append('\n');
        StringBuilder md =
                new StringBuilder("### Side-by-side run\n\n")
                        .append("Machine: ")
                        .append(machine())
                        .append("\n\n");
        for (Table t : tables) {
            text.append(t.text()).append('\n');
            md.append(t.markdown());
        }
        text.append("Targets\n");
        md.append("#### Targets\n\n");
        for (String v : verdicts) {
            text.append("  ").append(v).append('\n');
            md.append("- ").append(v).append('\n');
        }
        System.out.println(text);
        Path results = outDir().resolve("results.md");
        try {
            Files.writeString(results, md.toString());
            Files.writeString(outDir().resolve("results.txt"), text.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return results;
    }

    private String machine() {
        String cpu = "unknown CPU";
        try {
            cpu =
                    Files.readAllLines(Path.of("/proc/cpuinfo")).stream()
                            .filter(l -> l.startsWith("model name"))
                            .findFirst()
                            .map(l -> l.substring(l.indexOf(':') + 1).trim())
                            .orElse(cpu);
        } catch (IOException | RuntimeException e) {
            // not Linux: the CPU stays unnamed
        }
        return String.format(
                Locale.ROOT,
                "%d cores (%s), %s %s, Java %s, ZooKeeper %s standalone (forked JVM, "
                        + "data on local disk), %.1f s per measured run after %.1f s warm-up",
                Runtime.getRuntime().availableProcessors(),
                cpu,
                System.getProperty("os.name"),
                System.getProperty("os.version"),
                System.getProperty("java.version"),
                settings.version(),
                settings.run().toMillis() / 1000.0,
                settings.warmup().toMillis() / 1000.0);
    }
}
