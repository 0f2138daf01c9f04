package io.cosid.store.cli;

import io.cosid.store.Namespace;
import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.Stores;
import io.cosid.store.cosid.StoreMachineIdDistributor;
import io.cosid.store.jdbc.JdbcStores;
import io.cosid.store.zookeeper.ZooKeeperStores;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code migrate}: move range keys and slot namespaces between two configured stores. */
@Command(
        name = "migrate",
        mixinStandardHelpOptions = true,
        description = {
            "Move range keys and slot namespaces to another store, never reissuing a value.",
            "The target never issues a value, fence or window the source issued. Ranges: seal on"
                    + " the source,",
            "advance the target past the final value. Namespaces: define on the target, carry each"
                    + " slot's",
            "fence and next floor (refused while the source has unexpired leases). Idempotent.",
            "With --from-cosid-zookeeper, the source is CosId's own ZooKeeper layout: its segment"
                    + " counters become",
            "range keys of the same name, and its machine ids get next floors past every"
                    + " timestamp CosId may have used."
        })
final class MigrateCommand implements Callable<Integer> {

    @Option(
            names = "--config",
            paramLabel = "FILE",
            description = "YAML with the stores under cosid.stores (--from and --to name them).")
    @Nullable Path config;

    @Option(
            names = "--jdbc-url",
            paramLabel = "URL",
            description =
                    "The target: a database to use instead of --config and --to, e.g."
                            + " jdbc:postgresql://db:5432/app?user=app&password=secret.")
    @Nullable String jdbcUrl;

    @Option(
            names = "--table-prefix",
            paramLabel = "PREFIX",
            description = "With --jdbc-url: the target's table prefix (default cosid_).")
    @Nullable String tablePrefix;

    @Option(names = "--from", paramLabel = "STORE", description = "The source store's name.")
    @Nullable String from;

    @Option(
            names = "--from-leaf",
            paramLabel = "JDBC_URL",
            description =
                    "Migrate Meituan Leaf's counters from its leaf_alloc table in this database"
                            + " (with credentials in the URL).")
    @Nullable String fromLeaf;

    @Option(
            names = "--from-cosid-jdbc",
            paramLabel = "JDBC_URL",
            description =
                    "Migrate CosId's counters from its cosid table (cosid-jdbc) in this database.")
    @Nullable String fromCosIdJdbc;

    @Option(
            names = "--source-table",
            paramLabel = "TABLE",
            description =
                    "The table with --from-leaf (default leaf_alloc) or --from-cosid-jdbc"
                            + " (default cosid).")
    @Nullable String sourceTable;

    @Option(
            names = "--seal-source",
            description =
                    "With --from-leaf or --from-cosid-jdbc: rename each row to <name>~migrated"
                            + " first, so that its generator draws no more, then move its final"
                            + " maximum.")
    boolean sealSource;

    @Option(
            names = "--from-cosid-zookeeper",
            paramLabel = "CONNECT",
            description =
                    "Migrate from CosId's own ZooKeeper layout at this connect string instead of a"
                            + " store (read only).")
    @Nullable String fromCosId;

    @Option(
            names = "--cosid-root",
            paramLabel = "PATH",
            description = "CosId's root node (default /cosid).")
    String cosIdRoot = "/cosid";

    @Option(
            names = "--machine-bit",
            paramLabel = "BITS",
            description =
                    "CosId's machine bits: machine-id namespaces get 2^BITS slots (default 10).")
    int machineBit = 10;

    @Option(
            names = "--tolerance",
            paramLabel = "DURATION",
            description =
                    "Tolerance of the machine-id namespaces; the same as the applications'"
                            + " StoreMachineIdDistributor's (default ${DEFAULT-VALUE}, as the"
                            + " Spring Boot starter's cosid-store.machine.tolerance).")
    String tolerance = StoreConfig.formatDuration(Namespace.DEFAULT_TOLERANCE);

    @Option(
            names = "--cosid-guard-delay",
            paramLabel = "DURATION",
            description =
                    "How often CosId's instances guarded their machine ids (default 1m, CosId's"
                            + " default).")
    String guardDelay = "1m";

    @Option(
            names = "--quiet-for",
            paramLabel = "DURATION",
            description =
                    "Refuse while a CosId node was written more recently than this (default 3m).")
    String quietFor = "3m";

    @Option(
            names = "--to",
            paramLabel = "STORE",
            description = "The target store's name in --config (or give --jdbc-url).")
    @Nullable String to;

    @Option(names = "--keys", split = ",", paramLabel = "KEY", description = "Range keys to move.")
    List<String> keys = new ArrayList<>();

    @Option(
            names = "--namespaces",
            split = ",",
            paramLabel = "NS",
            description = "Slot namespaces to move.")
    List<String> namespaces = new ArrayList<>();

    @Option(names = "--all", description = "Every range key and namespace of the source.")
    boolean all;

    @Option(
            names = "--dry-run",
            description = "Show the plan and anything that blocks it; write nothing.")
    boolean dryRun;

    @Option(
            names = "--connect-wait",
            paramLabel = "DURATION",
            description = "How long to wait for each store's first connection (default 5s).")
    String connectWait;

    @Mixin JsonOption output;

    @Spec CommandSpec spec;

    @Override
    public Integer call() {
        if (!all && keys.isEmpty() && namespaces.isEmpty()) {
            throw new IllegalArgumentException(
                    "name what to move: --keys K1,K2, --namespaces NS1,NS2, or --all");
        }
        long sources =
                Stream.of(from, fromCosId, fromLeaf, fromCosIdJdbc)
                        .filter(Objects::nonNull)
                        .count();
        if (sources != 1) {
            throw new IllegalArgumentException(
                    "name the source: --from STORE, --from-cosid-zookeeper CONNECT, --from-leaf"
                            + " JDBC_URL or --from-cosid-jdbc JDBC_URL (one of them)");
        }
        if (fromCosId != null) {
            return fromCosId();
        }
        if (fromLeaf != null || fromCosIdJdbc != null) {
            return fromTable();
        }
        String fromName = Objects.requireNonNull(from); // one of the two, checked above
        if (fromName.equals(to)) {
            throw new IllegalArgumentException("--from and --to name the same store: " + from);
        }
        if (config == null) {
            throw new IllegalArgumentException("--from names a store in --config FILE; give it");
        }
        Duration wait = StoreSelection.connectWait(connectWait, null);
        StoreConfig sourceConfig =
                StoreSelection.withConnectWait(
                        StoreSelection.requireLasting(
                                StoreSelection.named(ConfigFiles.read(config), from, "--from"),
                                "migrate --from"),
                        wait);
        StoreConfig targetConfig = targetConfig(wait);
        try (Store source = Stores.open(sourceConfig);
                Store target = Stores.open(targetConfig)) {
            List<String> k = all ? new ArrayList<>(source.ranges().list().keySet()) : keys;
            List<String> n =
                    all
                            ? source.slots().namespaces().stream().map(Namespace::name).toList()
                            : namespaces;
            Migration.Report report = Migration.run(source, target, k, n, dryRun);
            print(report);
            if (!report.problems().isEmpty()) {
                throw new ExitCodes.Refused(
                        ExitCodes.FAILED,
                        "migration did not verify (the target does not show what was written): "
                                + String.join("; ", report.problems()));
            }
            return ExitCodes.OK;
        }
    }

    /** From Leaf's or CosId's counter table: range keys only, each advanced to its row's max. */
    private Integer fromTable() {
        if (!namespaces.isEmpty()) {
            throw new IllegalArgumentException(
                    "--namespaces: a counter table holds no machine ids; name --keys or --all");
        }
        TableMigration.Layout layout =
                fromLeaf != null ? TableMigration.Layout.LEAF : TableMigration.Layout.COSID;
        String url = Objects.requireNonNull(fromLeaf != null ? fromLeaf : fromCosIdJdbc);
        StoreConfig targetConfig = targetConfig(StoreSelection.connectWait(connectWait, null));
        try (Connection source = DriverManager.getConnection(url);
                Store target = Stores.open(targetConfig)) {
            Migration.Report report =
                    TableMigration.run(
                            source,
                            layout,
                            sourceTable == null ? layout.table : sourceTable,
                            target,
                            all ? List.of() : keys,
                            sealSource,
                            dryRun);
            print(report);
            if (!report.problems().isEmpty()) {
                throw new ExitCodes.Refused(
                        ExitCodes.FAILED,
                        "migration did not verify: " + String.join("; ", report.problems()));
            }
            return ExitCodes.OK;
        } catch (SQLException e) {
            throw new ExitCodes.Refused(
                    ExitCodes.FAILED,
                    "cannot read "
                            + layout.whose
                            + " table: "
                            + e.getMessage()
                            + " (nothing was"
                            + " written to the target unless the report says so)");
        }
    }

    private Integer fromCosId() {
        if (machineBit < 1 || machineBit > StoreMachineIdDistributor.MAX_MACHINE_BIT) {
            throw new IllegalArgumentException(
                    "--machine-bit must be 1.."
                            + StoreMachineIdDistributor.MAX_MACHINE_BIT
                            + " (a namespace has at most 65536 slots), was "
                            + machineBit);
        }
        CosIdMigration.Settings settings =
                new CosIdMigration.Settings(
                        machineBit,
                        StoreSelection.duration("--tolerance", tolerance),
                        StoreSelection.duration("--cosid-guard-delay", guardDelay),
                        StoreSelection.duration("--quiet-for", quietFor));
        Duration wait = StoreSelection.connectWait(connectWait, null);
        StoreConfig targetConfig = targetConfig(wait);
        try (CosIdZooKeeper cosId =
                        CosIdZooKeeper.connect(Objects.requireNonNull(fromCosId), wait);
                Store target = Stores.open(targetConfig)) {
            Set<String> passOver = sharedRoot(targetConfig);
            CosIdZooKeeperLayout layout = cosId.read(cosIdRoot, passOver);
            List<CosIdZooKeeperLayout.Counter> counters =
                    layout.counters().stream().filter(c -> all || keys.contains(c.key())).toList();
            List<CosIdZooKeeperLayout.MachineNamespace> machineNamespaces =
                    layout.namespaces().stream()
                            .filter(n -> all || namespaces.contains(n.name()))
                            .toList();
            missing(
                    keys,
                    counters.stream().map(CosIdZooKeeperLayout.Counter::key).toList(),
                    "counter");
            missing(
                    namespaces,
                    machineNamespaces.stream()
                            .map(CosIdZooKeeperLayout.MachineNamespace::name)
                            .toList(),
                    "machine-id namespace");
            Migration.Report report =
                    CosIdMigration.run(
                            target, counters, machineNamespaces, settings, Instant.now(), dryRun);
            List<String> problems = new ArrayList<>(report.problems());
            print(report);
            if (!dryRun) {
                problems.addAll(CosIdMigration.moved(counters, readAgain(cosId, passOver)));
            }
            if (!problems.isEmpty()) {
                throw new ExitCodes.Refused(
                        ExitCodes.FAILED,
                        "migration did not verify: " + String.join("; ", problems));
            }
            return ExitCodes.OK;
        }
    }

    /**
     * The target: the store {@code --to} names in {@code --config}, or the database {@code
     * --jdbc-url} names (with {@code --table-prefix}), as the other commands take it.
     */
    private StoreConfig targetConfig(Duration wait) {
        if (jdbcUrl != null) {
            if (to != null) {
                throw new IllegalArgumentException(
                        "--to and --jdbc-url both name the target: use one of them");
            }
            StoreConfig c =
                    StoreConfig.of(StoreSelection.TOOL_STORE, "jdbc").withOption("url", jdbcUrl);
            return tablePrefix == null ? c : c.withOption("tablePrefix", tablePrefix);
        }
        if (tablePrefix != null) {
            throw new IllegalArgumentException(
                    "--table-prefix goes with --jdbc-url; with --config set it in the file");
        }
        if (to == null || config == null) {
            throw new IllegalArgumentException(
                    "name the target: --config FILE --to STORE, or --jdbc-url URL");
        }
        return StoreSelection.withConnectWait(
                StoreSelection.requireLasting(
                        StoreSelection.named(ConfigFiles.read(config), to, "--to"), "migrate --to"),
                wait);
    }

    /**
     * CosId's layout read again after the migration wrote the target, to see whether a counter
     * moved meanwhile; a failure says that the target was written (the report above).
     */
    private CosIdZooKeeperLayout readAgain(CosIdZooKeeper cosId, Set<String> passOver) {
        try {
            return cosId.read(cosIdRoot, passOver);
        } catch (RuntimeException e) {
            throw afterWriting(e);
        }
    }

    /** The failure of reading CosId's layout again once the target was written. */
    static ExitCodes.Refused afterWriting(RuntimeException e) {
        return new ExitCodes.Refused(
                ExitCodes.FAILED,
                "the target was written as the report above shows, but CosId's nodes could not be"
                        + " read again to check that no counter moved meanwhile: "
                        + ExitCodes.describe(e).replace(" Nothing was written.", "")
                        + " Check that every CosId instance is stopped, then run the migration"
                        + " again (it only raises the target).");
    }

    /**
     * The target store's own nodes, when it is a ZooKeeper store under CosId's root on CosId's
     * ensemble (both default to {@code /cosid}): the walk of CosId's layout passes over them.
     */
    private Set<String> sharedRoot(StoreConfig target) {
        if (!target.type().equals("zookeeper")
                || !target.options()
                        .getOrDefault("root", StoreSelection.DEFAULT_ROOT)
                        .equals(cosIdRoot)) {
            return Set.of();
        }
        String servers = target.options().getOrDefault("connectString", "");
        return Ensembles.overlap(servers, Objects.requireNonNull(fromCosId))
                ? ZooKeeperStores.rootChildren()
                : Set.of();
    }

    private static void missing(List<String> asked, List<String> found, String what) {
        List<String> absent = asked.stream().filter(a -> !found.contains(a)).toList();
        if (!absent.isEmpty()) {
            throw new ExitCodes.Refused(
                    ExitCodes.NOT_FOUND,
                    "no CosId "
                            + what
                            + " named "
                            + String.join(", ", absent)
                            + " under the CosId root; nothing was written");
        }
    }

    /** The source as the report names it, without a password a URL may carry. */
    private String sourceName() {
        if (from != null) {
            return from;
        }
        if (fromCosId != null) {
            return "CosId's ZooKeeper at " + fromCosId + cosIdRoot;
        }
        TableMigration.Layout layout =
                fromLeaf != null ? TableMigration.Layout.LEAF : TableMigration.Layout.COSID;
        return layout.whose
                + " table "
                + (sourceTable == null ? layout.table : sourceTable)
                + " at "
                + JdbcStores.withoutSecrets(
                        Objects.requireNonNull(fromLeaf != null ? fromLeaf : fromCosIdJdbc));
    }

    private void print(Migration.Report report) {
        PrintWriter out = spec.commandLine().getOut();
        if (output.json) {
            out.println(Json.document(report.json()));
            return;
        }
        out.println(
                (dryRun ? "dry run: " : "")
                        + "migrate "
                        + sourceName()
                        + " -> "
                        + (to != null
                                ? to
                                : JdbcStores.withoutSecrets(Objects.requireNonNull(jdbcUrl))));
        Table keysTable =
                new Table("KEY", "SOURCE-FINAL", "TARGET-BEFORE", "TARGET-AFTER", "ACTIONS");
        report.keys()
                .forEach(
                        s ->
                                keysTable.row(
                                        s.key(),
                                        s.finalNext(),
                                        s.targetBefore() == null ? "unused" : s.targetBefore(),
                                        s.targetAfter(),
                                        String.join("; ", s.actions())));
        if (!keysTable.isEmpty()) {
            keysTable.print(out);
        }
        report.namespaceActions().forEach(out::println);
        Table slotsTable = new Table("NAMESPACE", "SLOT", "FENCE", "NEXT-FLOOR", "ACTIONS");
        report.slots()
                .forEach(
                        s ->
                                slotsTable.row(
                                        s.namespace(),
                                        s.slot(),
                                        s.fence(),
                                        s.nextFloor(),
                                        String.join("; ", s.actions())));
        if (!slotsTable.isEmpty()) {
            slotsTable.print(out);
        }
        if (!report.blockers().isEmpty()) {
            out.println("blocked: the migration would be refused until these are resolved:");
            report.blockers().forEach(b -> out.println("  " + b));
        }
        out.println(
                report.changes() == 0
                        ? "nothing to change: already migrated"
                        : report.changes()
                                + (dryRun
                                        ? " change(s) would be made"
                                        : " change(s) made, verified"));
        out.flush();
    }
}
