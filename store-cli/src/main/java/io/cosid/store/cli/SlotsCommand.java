package io.cosid.store.cli;

import io.cosid.store.Namespace;
import io.cosid.store.NamespaceSnapshot;
import io.cosid.store.SlotView;
import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code slots list NS | show NS SLOT}: who holds which machine id, with fences and windows; {@code
 * slots advance} and {@code slots define}: the repairs docs/contract.md ("Corrupt data",
 * "Bookkeeping writes") names.
 */
@Command(
        name = "slots",
        mixinStandardHelpOptions = true,
        description = "Inspect and repair the slots of a namespace.",
        subcommands = {
            SlotsCommand.ListSlots.class,
            SlotsCommand.Show.class,
            SlotsCommand.Advance.class,
            SlotsCommand.Define.class
        })
final class SlotsCommand implements Callable<Integer> {

    @Spec CommandSpec spec;

    /** Without a subcommand: say which ones exist. */
    @Override
    public Integer call() {
        throw ExitCodes.missingSubcommand(spec);
    }

    @Command(
            name = "list",
            mixinStandardHelpOptions = true,
            description =
                    "Every used slot: state, holder, fence, incarnation, window and timing by the"
                            + " store's clock.")
    static final class ListSlots implements Callable<Integer> {
        @Mixin StoreSelection selection;

        @Parameters(paramLabel = "NAMESPACE", description = "The namespace.")
        String namespace;

        @Mixin JsonOption output;

        @Spec CommandSpec spec;

        @Override
        public Integer call() {
            try (Store store = selection.open()) {
                NamespaceSnapshot snapshot = store.slots().inspect(namespace);
                Instant now = snapshot.now();
                PrintWriter out = spec.commandLine().getOut();
                if (output.json) {
                    List<Object> slots = new ArrayList<>();
                    snapshot.slots().forEach(v -> slots.add(Views.slot(v, now)));
                    Map<String, Object> doc = new LinkedHashMap<>();
                    doc.put(
                            "namespace",
                            Views.namespace(snapshot.namespace(), snapshot.held().size()));
                    doc.put("storeNow", now);
                    doc.put("slots", slots);
                    out.println(Json.document(doc));
                    return ExitCodes.OK;
                }
                out.println(
                        "namespace "
                                + namespace
                                + ": limit "
                                + snapshot.namespace().limit()
                                + ", tolerance "
                                + StoreConfig.formatDuration(snapshot.namespace().tolerance())
                                + ", "
                                + snapshot.held().size()
                                + " held; store now "
                                + now);
                Table t =
                        new Table(
                                "SLOT",
                                "STATE",
                                "HOLDER",
                                "FENCE",
                                "INC",
                                "FLOOR",
                                "CEILING",
                                "TIMING",
                                "NEXT-FLOOR");
                for (SlotView v : snapshot.slots()) {
                    t.row(
                            v.slot(),
                            Views.state(v, now),
                            v.ownerKey().isEmpty() ? "-" : v.ownerKey(),
                            v.fence(),
                            v.incarnation(),
                            v.floor(),
                            v.ceiling(),
                            Views.timing(v, now),
                            v.nextFloor());
                }
                t.print(out);
                return ExitCodes.OK;
            }
        }
    }

    @Command(name = "show", mixinStandardHelpOptions = true, description = "One slot in full.")
    static final class Show implements Callable<Integer> {
        @Mixin StoreSelection selection;

        @Parameters(index = "0", paramLabel = "NAMESPACE", description = "The namespace.")
        String namespace;

        @Parameters(index = "1", paramLabel = "SLOT", description = "The slot number.")
        int slot;

        @Mixin JsonOption output;

        @Spec CommandSpec spec;

        @Override
        public Integer call() {
            try (Store store = selection.open()) {
                NamespaceSnapshot snapshot = store.slots().inspect(namespace);
                if (!snapshot.namespace().contains(slot)) {
                    throw new IllegalArgumentException(
                            "slot "
                                    + slot
                                    + " is outside namespace '"
                                    + namespace
                                    + "', whose slots are 0.."
                                    + (snapshot.namespace().limit() - 1));
                }
                Instant now = snapshot.now();
                PrintWriter out = spec.commandLine().getOut();
                SlotView view =
                        snapshot.slots().stream()
                                .filter(v -> v.slot() == slot)
                                .findFirst()
                                .orElse(null);
                if (view == null) {
                    output.print(
                            out,
                            "slot " + slot + " of " + namespace + ": never used",
                            Views.unusedSlot(namespace, slot, now));
                    return ExitCodes.OK;
                }
                Map<String, Object> fields = Views.slot(view, now);
                if (output.json) {
                    out.println(Json.document(fields));
                } else {
                    fields.forEach((k, v) -> out.printf("%-16s %s%n", k, v == null ? "-" : v));
                    out.printf("%-16s %s%n", "timing", Views.timing(view, now));
                }
                return ExitCodes.OK;
            }
        }
    }

    @Command(
            name = "advance",
            mixinStandardHelpOptions = true,
            description =
                    "Raise a free slot's fence and next floor (never lowers them): the repair of a"
                            + " slot node deleted or rewritten by hand. Needs --yes.")
    static final class Advance implements Callable<Integer> {
        @Mixin StoreSelection selection;

        @Parameters(index = "0", paramLabel = "NAMESPACE", description = "The namespace.")
        String namespace;

        @Parameters(index = "1", paramLabel = "SLOT", description = "The slot.")
        int slot;

        @Option(
                names = "--fence",
                required = true,
                description = "The lowest fence afterwards; the next term gets more.")
        long fence;

        @Option(
                names = "--floor",
                required = true,
                description =
                        "The lowest floor of the next term, an ISO-8601 instant"
                                + " (2030-01-01T00:00:00Z).")
        Instant floor;

        @Option(
                names = "--yes",
                description = "Confirm: fences and timestamps below are never handed out again.")
        boolean yes;

        @Spec CommandSpec spec;

        @Override
        public Integer call() {
            if (!yes) {
                throw new ExitCodes.Refused(
                        ExitCodes.REFUSED,
                        "refused: advancing slot "
                                + slot
                                + " of "
                                + namespace
                                + " to fence "
                                + fence
                                + " and floor "
                                + floor
                                + " skips both for good; add --yes to confirm");
            }
            try (Store store = selection.openForChange("slots advance")) {
                SlotView v = store.slots().advance(namespace, slot, fence, floor);
                spec.commandLine()
                        .getOut()
                        .println(
                                namespace
                                        + " slot "
                                        + slot
                                        + ": fence "
                                        + v.fence()
                                        + ", next floor "
                                        + v.nextFloor());
                return ExitCodes.OK;
            }
        }
    }

    @Command(
            name = "define",
            mixinStandardHelpOptions = true,
            description =
                    "Create a namespace, or check an existing one (raising its limit is allowed)."
                        + " Defining it again with its limit and tolerance recreates a clock node"
                        + " deleted by hand.")
    static final class Define implements Callable<Integer> {
        @Mixin StoreSelection selection;

        @Parameters(paramLabel = "NAMESPACE", description = "The namespace.")
        String namespace;

        @Option(names = "--limit", required = true, description = "The number of slots, 1-65536.")
        int limit;

        @Option(
                names = "--tolerance",
                required = true,
                description =
                        "The clock skew allowed between holders and the store, e.g. 1s or 500ms.")
        String tolerance;

        @Spec CommandSpec spec;

        @Override
        public Integer call() {
            Duration skew = StoreConfig.parseDuration("--tolerance", tolerance);
            try (Store store = selection.openForChange("slots define")) {
                Namespace ns = store.slots().define(namespace, limit, skew);
                spec.commandLine()
                        .getOut()
                        .println(
                                ns.name()
                                        + ": limit "
                                        + ns.limit()
                                        + ", tolerance "
                                        + StoreConfig.formatDuration(ns.tolerance()));
                return ExitCodes.OK;
            }
        }
    }
}
