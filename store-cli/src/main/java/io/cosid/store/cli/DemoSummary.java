package io.cosid.store.cli;

import io.cosid.store.NamespaceSnapshot;
import io.cosid.store.RangeState;
import io.cosid.store.SlotView;
import io.cosid.store.Store;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The demo's summary after the fleet stopped: slots, terms, takeovers, what happened and why,
 * ranges, and the checks over every ID; as tables for people or one JSON document.
 */
final class DemoSummary {

    private final int instances;
    private final Duration ttl;
    private final boolean json;

    DemoSummary(int instances, Duration ttl, boolean json) {
        this.instances = instances;
        this.ttl = ttl;
        this.json = json;
    }

    void print(
            PrintWriter out,
            Store admin,
            DemoReport report,
            DemoFleet fleet,
            List<DemoFleet.Instance> crashed,
            List<Integer> crashedSlots,
            List<Integer> restartedSlots,
            int backInPlace,
            long duplicates) {
        NamespaceSnapshot snapshot = admin.slots().inspect(DemoFleet.NAMESPACE);
        Map<String, RangeState> ranges = admin.ranges().list();
        long ids = fleet.snowflakeCount.get() + fleet.segmentCount.get();
        List<String> why =
                report.explain(
                        crashed.stream().map(i -> i.owner).toList(),
                        crashedSlots,
                        restartedSlots,
                        ttl,
                        fleet.timeouts().size());
        if (json) {
            printJson(
                    out,
                    snapshot,
                    ranges,
                    report,
                    fleet,
                    crashedSlots,
                    restartedSlots,
                    backInPlace,
                    duplicates,
                    why);
            return;
        }
        printSlots(out, snapshot);
        printTerms(out, report);
        out.println();
        out.println(
                "takeovers after expiry (larger fence, floor >= old ceiling): "
                        + report.takeovers.size());
        report.takeovers.forEach(t -> out.println("  " + t));
        out.println(
                "restarted instances given their slot back by the owner index: "
                        + backInPlace
                        + " of "
                        + crashed.size()
                        + " (slots before crash "
                        + crashedSlots
                        + ", after restart "
                        + restartedSlots
                        + ")");
        printWhatHappened(out, why);
        printRangesAndIds(out, ranges, report, fleet, ids, duplicates);
        out.flush();
    }

    private void printJson(
            PrintWriter out,
            NamespaceSnapshot snapshot,
            Map<String, RangeState> ranges,
            DemoReport report,
            DemoFleet fleet,
            List<Integer> crashedSlots,
            List<Integer> restartedSlots,
            int backInPlace,
            long duplicates,
            List<String> why) {
        long ids = fleet.snowflakeCount.get() + fleet.segmentCount.get();
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("instances", instances);
        doc.put("terms", report.terms);
        doc.put("takeovers", report.takeovers);
        doc.put("crashedSlots", crashedSlots);
        doc.put("restartedSlots", restartedSlots);
        doc.put("restartsGivenTheirSlotBack", backInPlace);
        doc.put("leasesLost", report.lost);
        doc.put("whatHappened", why);
        List<Object> slots = new ArrayList<>();
        snapshot.slots().forEach(v -> slots.add(Views.slot(v, snapshot.now())));
        doc.put("slots", slots);
        List<Object> keys = new ArrayList<>();
        ranges.forEach((k, s) -> keys.add(Views.range(k, s)));
        doc.put("ranges", keys);
        doc.put("rangesAcquired", fleet.rangeCount.get());
        doc.put("snowflakeIds", fleet.snowflakeCount.get());
        doc.put("segmentIds", fleet.segmentCount.get());
        doc.put("idsChecked", ids);
        doc.put("duplicates", duplicates);
        doc.put("windowOverlaps", report.overlaps);
        doc.put("timeouts", fleet.timeouts());
        doc.put("errors", fleet.errors());
        out.println(Json.document(doc));
    }

    private static void printSlots(PrintWriter out, NamespaceSnapshot snapshot) {
        out.println();
        out.println("== slots (store now " + snapshot.now() + ") ==");
        Table slots =
                new Table(
                        "SLOT",
                        "STATE",
                        "LAST-HOLDER",
                        "FENCE",
                        "INC",
                        "FLOOR",
                        "CEILING",
                        "TIMING");
        for (SlotView v : snapshot.slots()) {
            slots.row(
                    v.slot(),
                    Views.state(v, snapshot.now()),
                    v.ownerKey(),
                    v.fence(),
                    v.incarnation(),
                    v.floor(),
                    v.ceiling(),
                    Views.timing(v, snapshot.now()));
        }
        slots.print(out);
    }

    private static void printTerms(PrintWriter out, DemoReport report) {
        out.println();
        out.println("== terms: " + report.terms + " over " + report.bySlot.size() + " slots ==");
        // a released term's window ends at its release bound, not at its ceiling: showing the
        // ceiling would look like an overlap with the next term
        Table terms = new Table("SLOT", "FENCE", "HOLDER", "INC", "FLOOR", "WINDOW-END", "ENDED");
        report.bySlot
                .values()
                .forEach(
                        list ->
                                list.forEach(
                                        t ->
                                                terms.row(
                                                        t.slot,
                                                        t.fence,
                                                        t.owner,
                                                        t.incarnation,
                                                        t.floor,
                                                        t.windowEnd(),
                                                        t.ended)));
        terms.print(out);
    }

    private static void printRangesAndIds(
            PrintWriter out,
            Map<String, RangeState> ranges,
            DemoReport report,
            DemoFleet fleet,
            long ids,
            long duplicates) {
        out.println();
        out.println("== ranges ==");
        Table keys = new Table("KEY", "NEXT");
        ranges.forEach((k, s) -> keys.row(k, s.next()));
        keys.print(out);
        out.println("ranges acquired: " + fleet.rangeCount.get());
        out.println();
        out.printf(
                "IDs generated: %,d snowflake + %,d segment = %,d%n",
                fleet.snowflakeCount.get(), fleet.segmentCount.get(), ids);
        out.println("duplicates: " + duplicates + " (checked over every ID generated)");
        out.println("window overlaps: " + report.overlaps.size());
        report.overlaps.forEach(o -> out.println("  " + o));
        out.println("timeouts: " + fleet.timeouts().size());
        fleet.timeouts().forEach(e -> out.println("  " + e));
        fleet.errors().forEach(e -> out.println("error: " + e));
    }

    private static void printWhatHappened(PrintWriter out, List<String> why) {
        out.println();
        out.println("== what happened ==");
        if (why.isEmpty()) {
            out.println(
                    "as planned: every lease renewed in time, every restart got its slot back, no"
                            + " timeout");
        }
        why.forEach(w -> out.println("- " + w));
    }
}
