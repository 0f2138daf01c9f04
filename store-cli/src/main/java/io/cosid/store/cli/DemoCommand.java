package io.cosid.store.cli;

import io.cosid.store.Store;
import io.cosid.store.StoreAdmin;
import io.cosid.store.StoreConfig;
import io.cosid.store.Stores;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code demo}: a small fleet on a real ZooKeeper (embedded in this process unless {@code
 * --connect} names one) or, with {@code --backend postgresql}, on a PostgreSQL the tool starts,
 * whose instances generate IDs with CosId's own generators on cosid-store (machine ids as slot
 * leases through {@code StoreMachineIdDistributor}, segments through {@code
 * StoreIdSegmentDistributor}); mid-run some instances crash without releasing (their slots expire
 * and are taken over with a larger fence and a floor at or above the old ceiling) and later restart
 * (the owner index gives their slots back). Every ID generated is checked: the number of duplicates
 * must be 0.
 */
@Command(
        name = "demo",
        mixinStandardHelpOptions = true,
        description = {
            "Run a small fleet on an embedded ZooKeeper (or PostgreSQL) and check every ID it"
                    + " generates.",
            "IDs come from CosId's MillisecondSnowflakeId and SegmentChainId on cosid-store.",
            "Crashes some instances mid-run (their slots are taken over after expiry) and restarts"
                    + " them."
        })
final class DemoCommand implements Callable<Integer> {

    @Option(
            names = "--instances",
            defaultValue = "8",
            description =
                    "Fleet size, also the number of machine ids: a power of two, 2 to 1024"
                            + " (default 8).")
    int instances;

    @Option(
            names = "--duration",
            defaultValue = "12s",
            description = "How long the fleet runs (default 12s).")
    String duration;

    @Option(
            names = "--ttl",
            defaultValue = "2s",
            description = "The slot leases' ttl (default 2s).")
    String ttl;

    @Option(
            names = "--tolerance",
            defaultValue = "200ms",
            description = "The namespace's clock-skew tolerance (default 200ms).")
    String tolerance;

    @Option(
            names = "--backend",
            paramLabel = "zookeeper|postgresql",
            defaultValue = "zookeeper",
            description =
                    "The embedded server the fleet's stores use (default zookeeper); postgresql"
                            + " runs PostgreSQL from the programs the tool carries (Linux x86-64).")
    String backend;

    @Option(
            names = "--connect",
            paramLabel = "HOST:PORT[,...]",
            description = "Use this ZooKeeper instead of an embedded one.")
    @Nullable String connect;

    @Option(
            names = "--keep",
            description =
                    "With --connect: keep the demo's root afterwards (it is removed by default).")
    boolean keep;

    @Option(
            names = "--connect-wait",
            paramLabel = "DURATION",
            description = "With --connect: how long to wait for the first connection (default 5s).")
    String connectWait;

    @Option(names = "--quiet", description = "No progress lines, only the summary.")
    boolean quiet;

    @Mixin JsonOption output;

    @Spec CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        Duration runFor = StoreSelection.duration("--duration", duration);
        Duration leaseTtl = StoreSelection.duration("--ttl", ttl);
        Duration skew = StoreConfig.parseDuration("--tolerance", tolerance);
        checkArguments(runFor, leaseTtl);
        PrintWriter out = spec.commandLine().getOut();
        String root = "/cosid-demo-" + UUID.randomUUID().toString().substring(0, 8);
        EmbeddedBackend kind = backend();
        EmbeddedServer embedded = null;
        Thread cleanup = null;
        StoreConfig rootToRemove = null;
        try {
            String connectString = connect;
            if (connectString == null) {
                embedded = kind.start(0, null);
                connectString = embedded.address();
            }
            StoreConfig config =
                    embedded != null && kind == EmbeddedBackend.POSTGRESQL
                            ? EmbeddedBackend.jdbc("demo", embedded, Duration.ofSeconds(5))
                            : demoConfig(connectString, root);
            rootToRemove = connect == null || keep ? null : config;
            // The hook before the first line: whoever reads that line may stop us at once.
            cleanup = cleanupOnInterrupt(embedded, rootToRemove);
            if (embedded != null) {
                progress(
                        out,
                        "embedded "
                                + embedded.product()
                                + " on "
                                + connectString
                                + " (data in "
                                + embedded.dir()
                                + ", removed on exit, Ctrl-C too)");
            }
            int code = run(config, where(config, connectString, root), runFor, leaseTtl, skew, out);
            if (connect != null) {
                finishRoot(config, root, out);
                rootToRemove = null;
            }
            return code;
        } finally {
            if (rootToRemove != null) {
                // the run failed: its root must not stay behind on the user's server unsaid
                removeAfterFailure(rootToRemove, root);
            }
            if (cleanup != null) {
                try {
                    Runtime.getRuntime().removeShutdownHook(cleanup);
                } catch (IllegalStateException shuttingDown) {
                    // the hook is running: it cleans up
                }
            }
            if (embedded != null) {
                embedded.close();
            }
        }
    }

    /** The backend, refusing a ZooKeeper named with --connect for any other. */
    private EmbeddedBackend backend() {
        EmbeddedBackend kind = EmbeddedBackend.parse(backend);
        if (kind != EmbeddedBackend.ZOOKEEPER && connect != null) {
            throw new IllegalArgumentException(
                    "--connect names a ZooKeeper; with --backend "
                            + kind.option
                            + " the demo runs its own server");
        }
        return kind;
    }

    /** Where the fleet's stores are, as the first progress line names it. */
    private static String where(StoreConfig config, String address, String root) {
        return config.type().equals("jdbc") ? address : address + " root " + root;
    }

    /** With --connect: keeps the demo's root (--keep) or removes it, saying which. */
    private void finishRoot(StoreConfig config, String root, PrintWriter out) {
        if (keep) {
            progress(out, "kept root " + root + " on " + connect + " (--keep)");
        } else {
            removeRoot(config);
            progress(out, "removed root " + root + " from " + connect + " (keep it with --keep)");
        }
    }

    private void checkArguments(Duration runFor, Duration leaseTtl) {
        if (instances < 2 || instances > 1024 || Integer.bitCount(instances) != 1) {
            throw new IllegalArgumentException(
                    "--instances must be a power of two from 2 to 1024 (CosId's machine ids are"
                            + " 2^machineBit slots), got "
                            + instances);
        }
        if (runFor.compareTo(leaseTtl.multipliedBy(6)) < 0) {
            throw new IllegalArgumentException(
                    "--duration "
                            + duration
                            + " must be at least 6 x --ttl ("
                            + ttl
                            + "): crashed instances' leases must expire and be taken over mid-run");
        }
    }

    /** The demo's store: its own root, a short session so that crashed instances expire soon. */
    private StoreConfig demoConfig(String connectString, String root) {
        return StoreConfig.of("demo", "zookeeper")
                .withTimeout(Duration.ofSeconds(5))
                .withOption("connectString", connectString)
                .withOption("root", root)
                .withOption("sessionTimeout", "10s")
                .withOption(
                        "blockUntilConnectedWait",
                        StoreConfig.formatDuration(StoreSelection.connectWait(connectWait, null)));
    }

    /**
     * What Ctrl-C must not leave behind: the embedded server's data, or the demo's root on a server
     * named with {@code --connect} (unless {@code --keep}). Best effort, as a hook must be.
     */
    private static Thread cleanupOnInterrupt(
            @Nullable EmbeddedServer embedded, @Nullable StoreConfig rootToRemove) {
        Thread hook =
                new Thread(
                        () -> {
                            if (rootToRemove != null) {
                                try {
                                    removeRoot(rootToRemove);
                                } catch (RuntimeException e) {
                                    // the process is ending; the root's name was printed
                                }
                            }
                            if (embedded != null) {
                                embedded.close();
                            }
                        },
                        "cosid-store-demo-cleanup");
        Runtime.getRuntime().addShutdownHook(hook);
        return hook;
    }

    /**
     * Deletes the root of a demo that failed on a server named with {@code --connect}, or says on
     * stderr where it stays and how to remove it.
     */
    private void removeAfterFailure(StoreConfig config, String root) {
        PrintWriter err = spec.commandLine().getErr();
        try {
            removeRoot(config);
            err.println("cosid-store: removed the demo's root " + root + " from " + connect);
        } catch (RuntimeException e) {
            err.println(
                    "cosid-store: the demo's root "
                            + root
                            + " stays on "
                            + connect
                            + " ("
                            + ExitCodes.describe(e)
                            + "); remove it with: cosid-store purge --connect "
                            + connect
                            + " --root "
                            + root
                            + " --confirm-all-instances-stopped");
        }
        err.flush();
    }

    /** Deletes the demo's root: every instance has stopped and released or expired. */
    private static void removeRoot(StoreConfig config) {
        try (Store store = Stores.open(config)) {
            store.admin().ifPresent(StoreAdmin::purge);
        }
    }

    private int run(
            StoreConfig config,
            String where,
            Duration runFor,
            Duration leaseTtl,
            Duration skew,
            PrintWriter out)
            throws InterruptedException {
        try (Store admin = Stores.open(config);
                DemoFleet fleet =
                        new DemoFleet(
                                config, leaseTtl, skew, Integer.numberOfTrailingZeros(instances))) {
            admin.slots().define(DemoFleet.NAMESPACE, instances, skew);
            long start = System.nanoTime();
            int crashes = Math.max(1, instances / 4);
            announce(out, where);
            List<DemoFleet.Instance> running = new ArrayList<>();
            for (int i = 0; i < instances; i++) {
                running.add(fleet.start("instance-" + i));
            }
            waitUntil(start, runFor.multipliedBy(3).dividedBy(10), fleet, out);

            List<DemoFleet.Instance> crashed =
                    new ArrayList<>(running.subList(instances - crashes, instances));
            List<Integer> crashedSlots = crash(crashed, running);
            List<DemoFleet.Instance> replacements = replace(fleet, crashed, crashedSlots, out);
            waitUntil(start, runFor.multipliedBy(65).dividedBy(100), fleet, out);

            List<DemoFleet.Instance> restarted = restart(fleet, crashed, replacements, out);
            running.addAll(restarted);
            waitUntil(start, runFor, fleet, out);
            List<Integer> restartedSlots =
                    restarted.stream().map(DemoFleet.Instance::slot).toList();
            running.forEach(DemoFleet.Instance::stop);
            progress(out, "stopped: " + counts(start, fleet));

            DemoReport report = new DemoReport(fleet.events);
            long duplicates = duplicates(fleet);
            int backInPlace = 0;
            for (int i = 0; i < crashedSlots.size(); i++) {
                backInPlace += crashedSlots.get(i).equals(restartedSlots.get(i)) ? 1 : 0;
            }
            new DemoSummary(instances, leaseTtl, output.json)
                    .print(
                            out,
                            admin,
                            report,
                            fleet,
                            crashed,
                            crashedSlots,
                            restartedSlots,
                            backInPlace,
                            duplicates);
            verdict(report, duplicates, fleet);
            return ExitCodes.OK;
        }
    }

    private void announce(PrintWriter out, String where) {
        progress(
                out,
                "fleet of "
                        + instances
                        + " instances on "
                        + where
                        + "; namespace "
                        + DemoFleet.NAMESPACE
                        + " with "
                        + instances
                        + " slots, ttl "
                        + ttl
                        + "; IDs from CosId's MillisecondSnowflakeId (behind"
                        + " LeaseBoundSnowflakeId) and SegmentChainId");
    }

    /** Crashes {@code crashed} (no release) and takes them out of {@code running}; their slots. */
    private static List<Integer> crash(
            List<DemoFleet.Instance> crashed, List<DemoFleet.Instance> running) {
        List<Integer> crashedSlots = new ArrayList<>();
        for (DemoFleet.Instance i : crashed) {
            crashedSlots.add(i.slot());
            i.crash();
            running.remove(i);
        }
        return crashedSlots;
    }

    /** Starts one replacement per crashed instance; they take the slots once those expire. */
    private List<DemoFleet.Instance> replace(
            DemoFleet fleet,
            List<DemoFleet.Instance> crashed,
            List<Integer> crashedSlots,
            PrintWriter out) {
        progress(
                out,
                "crashed "
                        + crashed.size()
                        + " instance(s) without release: "
                        + names(crashed)
                        + " on slots "
                        + crashedSlots
                        + "; starting "
                        + crashed.size()
                        + " replacement(s), which take the slots once they expire");
        List<DemoFleet.Instance> replacements = new ArrayList<>();
        for (int i = 0; i < crashed.size(); i++) {
            replacements.add(fleet.start("replacement-" + i));
        }
        return replacements;
    }

    /** Stops the replacements (release) and restarts the crashed instances by their names. */
    private List<DemoFleet.Instance> restart(
            DemoFleet fleet,
            List<DemoFleet.Instance> crashed,
            List<DemoFleet.Instance> replacements,
            PrintWriter out) {
        progress(
                out,
                "stopping the replacements (release), restarting "
                        + names(crashed)
                        + ": the owner index gives each its slot back");
        replacements.forEach(DemoFleet.Instance::stop);
        List<DemoFleet.Instance> restarted = new ArrayList<>();
        for (DemoFleet.Instance i : crashed) {
            restarted.add(fleet.start(i.owner));
        }
        return restarted;
    }

    /** Duplicate IDs over every ID the fleet generated. */
    private static long duplicates(DemoFleet fleet) {
        long duplicates = LongLog.duplicates(fleet.snowflakes);
        for (List<LongLog> perKey : fleet.segments) {
            duplicates += LongLog.duplicates(perKey);
        }
        return duplicates;
    }

    /** The demo's exit: a broken invariant first, then a store failure, then a timeout. */
    private static void verdict(DemoReport report, long duplicates, DemoFleet fleet) {
        if (duplicates > 0 || !report.overlaps.isEmpty()) {
            throw new ExitCodes.Refused(
                    ExitCodes.INVARIANT_BROKEN,
                    "demo check failed: "
                            + duplicates
                            + " duplicate IDs, "
                            + report.overlaps.size()
                            + " window overlaps");
        }
        if (!fleet.errors().isEmpty()) {
            throw new ExitCodes.Refused(
                    ExitCodes.FAILED,
                    "the store failed (0 duplicates, 0 overlaps): "
                            + String.join("; ", fleet.errors()));
        }
        if (!fleet.timeouts().isEmpty()) {
            throw new ExitCodes.Refused(
                    ExitCodes.FAILED,
                    fleet.timeouts().size()
                            + " store operation(s) timed out (0 duplicates, 0 overlaps; the"
                            + " instances went on): "
                            + fleet.timeouts().get(0));
        }
    }

    private void waitUntil(long start, Duration at, DemoFleet fleet, PrintWriter out)
            throws InterruptedException {
        long end = start + at.toNanos();
        while (System.nanoTime() < end) {
            Thread.sleep(Math.min(1000, Math.max(1, (end - System.nanoTime()) / 1_000_000)));
            progress(out, counts(start, fleet));
        }
    }

    /** The running counts, as every progress line and the final one show them. */
    private static String counts(long start, DemoFleet fleet) {
        return String.format(
                "[%5.1fs] snowflake IDs %,d · segment IDs %,d · ranges %,d · lease events %d",
                (System.nanoTime() - start) / 1e9,
                fleet.snowflakeCount.get(),
                fleet.segmentCount.get(),
                fleet.rangeCount.get(),
                fleet.events.size());
    }

    private void progress(PrintWriter out, String line) {
        if (!quiet && !output.json) {
            out.println(line);
            out.flush();
        }
    }

    private static String names(List<DemoFleet.Instance> list) {
        return list.stream().map(i -> i.owner).toList().toString();
    }
}
