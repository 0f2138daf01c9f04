package io.cosid.store.cli;

import io.cosid.store.Namespace;
import io.cosid.store.NamespaceSnapshot;
import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code namespaces}: every slot namespace with its limit, tolerance and held slots. */
@Command(
        name = "namespaces",
        mixinStandardHelpOptions = true,
        description = "List slot namespaces with limit, tolerance and how many slots are held.")
final class NamespacesCommand implements Callable<Integer> {

    @Mixin StoreSelection selection;

    @Mixin JsonOption output;

    @Spec CommandSpec spec;

    @Override
    public Integer call() {
        try (Store store = selection.open()) {
            List<Object> rows = new ArrayList<>();
            Table t = new Table("NAMESPACE", "LIMIT", "TOLERANCE", "HELD");
            for (Namespace ns : store.slots().namespaces()) {
                NamespaceSnapshot snapshot = store.slots().inspect(ns.name());
                long held = snapshot.held().size();
                rows.add(Views.namespace(ns, held));
                t.row(ns.name(), ns.limit(), StoreConfig.formatDuration(ns.tolerance()), held);
            }
            if (output.json) {
                spec.commandLine().getOut().println(Json.document(Map.of("namespaces", rows)));
            } else {
                t.print(spec.commandLine().getOut());
            }
            return ExitCodes.OK;
        }
    }
}
