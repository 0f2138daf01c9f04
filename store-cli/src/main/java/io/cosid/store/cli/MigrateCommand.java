package io.cosid.store.cli;

import io.cosid.store.Namespace;
import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.Stores;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
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
            "fence and next floor (refused while the source has unexpired leases). Idempotent."
        })
final class MigrateCommand implements Callable<Integer> {

    @Option(
            names = "--config",
            required = true,
            paramLabel = "FILE",
            description = "YAML with both stores under cosid.stores.")
    Path config;

    @Option(
            names = "--from",
            required = true,
            paramLabel = "STORE",
            description = "The source store's name.")
    String from;

    @Option(
            names = "--to",
            required = true,
            paramLabel = "STORE",
            description = "The target store's name.")
    String to;

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

    @Option(names = "--json", description = "One JSON document for scripts.")
    boolean json;

    @Spec CommandSpec spec;

    @Override
    public Integer call() {
        if (!all && keys.isEmpty() && namespaces.isEmpty()) {
            throw new IllegalArgumentException(
                    "name what to move: --keys K1,K2, --namespaces NS1,NS2, or --all");
        }
        if (from.equals(to)) {
            throw new IllegalArgumentException("--from and --to name the same store: " + from);
        }
        Map<String, StoreConfig> stores = ConfigFiles.read(config);
        Duration wait = StoreSelection.connectWait(connectWait, null);
        StoreConfig sourceConfig =
                StoreSelection.withConnectWait(
                        StoreSelection.requireLasting(
                                StoreSelection.named(stores, from, "--from"), "migrate --from"),
                        wait);
        StoreConfig targetConfig =
                StoreSelection.withConnectWait(
                        StoreSelection.requireLasting(
                                StoreSelection.named(stores, to, "--to"), "migrate --to"),
                        wait);
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

    private void print(Migration.Report report) {
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(Json.document(report.json()));
            return;
        }
        out.println((dryRun ? "dry run: " : "") + "migrate " + from + " -> " + to);
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
