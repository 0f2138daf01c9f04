package io.cosid.store.cli;

import io.cosid.store.NamespaceSnapshot;
import io.cosid.store.SlotView;
import io.cosid.store.Store;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code slots list NS | show NS SLOT}: who holds which machine id, with fences and windows. */
@Command(name = "slots", mixinStandardHelpOptions = true, description = "Inspect the slots of a namespace.",
        subcommands = {SlotsCommand.ListSlots.class, SlotsCommand.Show.class})
final class SlotsCommand implements Callable<Integer> {

    @Spec CommandSpec spec;

    /** Without a subcommand: say which ones exist. */
    @Override
    public Integer call() {
        throw ExitCodes.missingSubcommand(spec);
    }

    @Command(name = "list", mixinStandardHelpOptions = true,
            description = "Every used slot: state, holder, fence, incarnation, window and timing by the store's clock.")
    static final class ListSlots implements Callable<Integer> {
        @Mixin StoreSelection selection;
        @Parameters(paramLabel = "NAMESPACE", description = "The namespace.") String namespace;
        @Option(names = "--json", description = "One JSON document for scripts.") boolean json;
        @Spec CommandSpec spec;

        @Override
        public Integer call() {
            try (Store store = selection.open()) {
                NamespaceSnapshot snapshot = store.slots().inspect(namespace);
                Instant now = snapshot.now();
                PrintWriter out = spec.commandLine().getOut();
                if (json) {
                    List<Object> slots = new ArrayList<>();
                    snapshot.slots().forEach(v -> slots.add(Views.slot(v, now)));
                    Map<String, Object> doc = new LinkedHashMap<>();
                    doc.put("namespace", Views.namespace(snapshot.namespace(), snapshot.held().size()));
                    doc.put("storeNow", now);
                    doc.put("slots", slots);
                    out.println(Json.of(doc));
                    return ExitCodes.OK;
                }
                out.println("namespace " + namespace + ": limit " + snapshot.namespace().limit() + ", tolerance "
                        + snapshot.namespace().tolerance().toMillis() + "ms, " + snapshot.held().size()
                        + " held; store now " + now);
                Table t = new Table("SLOT", "STATE", "HOLDER", "FENCE", "INC", "FLOOR", "CEILING", "TIMING", "NEXT-FLOOR");
                for (SlotView v : snapshot.slots()) {
                    t.row(v.slot(), Views.state(v, now), v.ownerKey().isEmpty() ? "-" : v.ownerKey(), v.fence(),
                            v.incarnation(), v.floor(), v.ceiling(), Views.timing(v, now), v.nextFloor());
                }
                t.print(out);
                return ExitCodes.OK;
            }
        }
    }

    @Command(name = "show", mixinStandardHelpOptions = true, description = "One slot in full.")
    static final class Show implements Callable<Integer> {
        @Mixin StoreSelection selection;
        @Parameters(index = "0", paramLabel = "NAMESPACE", description = "The namespace.") String namespace;
        @Parameters(index = "1", paramLabel = "SLOT", description = "The slot number.") int slot;
        @Option(names = "--json", description = "One JSON document for scripts.") boolean json;
        @Spec CommandSpec spec;

        @Override
        public Integer call() {
            try (Store store = selection.open()) {
                NamespaceSnapshot snapshot = store.slots().inspect(namespace);
                if (!snapshot.namespace().contains(slot)) {
                    throw new IllegalArgumentException("slot " + slot + " is outside namespace '" + namespace
                            + "', whose slots are 0.." + (snapshot.namespace().limit() - 1));
                }
                Instant now = snapshot.now();
                PrintWriter out = spec.commandLine().getOut();
                SlotView view = snapshot.slots().stream().filter(v -> v.slot() == slot).findFirst().orElse(null);
                if (view == null) {
                    out.println(json ? Json.of(Map.of("namespace", namespace, "slot", slot, "state", "unused"))
                            : "slot " + slot + " of " + namespace + ": never used");
                    return ExitCodes.OK;
                }
                Map<String, Object> fields = Views.slot(view, now);
                if (json) {
                    out.println(Json.of(fields));
                } else {
                    fields.forEach((k, v) -> out.printf("%-16s %s%n", k, v == null ? "-" : v));
                    out.printf("%-16s %s%n", "timing", Views.timing(view, now));
                }
                return ExitCodes.OK;
            }
        }
    }
}
