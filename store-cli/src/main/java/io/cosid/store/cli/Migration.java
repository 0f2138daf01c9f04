package io.cosid.store.cli;

import io.cosid.store.Namespace;
import io.cosid.store.NamespaceSnapshot;
import io.cosid.store.RangeState;
import io.cosid.store.SlotView;
import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Moves counters and slot namespaces from one store to another through the SPI alone, so that the
 * target can never issue a value, fence or window the source already issued (docs/operations.md,
 * "Migration"):
 *
 * <ul>
 *   <li>a range key is sealed on the source, then the target is advanced to at least the source's
 *       final next;
 *   <li>a namespace is defined on the target and each slot's fence and next floor are carried with
 *       advance.
 * </ul>
 *
 * Every step is a no-op when already done, so running it twice changes nothing. Everything that
 * could refuse is checked before the first write.
 */
final class Migration {

    /** One range key: what the source and target held, and what was (or would be) done. */
    record KeyStep(
            String key,
            long finalNext,
            @Nullable Long targetBefore,
            long targetAfter,
            List<String> actions) {}

    /** One slot carried to the target. */
    record SlotStep(
            String namespace,
            int slot,
            long fence,
            Instant nextFloor,
            long targetFenceBefore,
            Instant targetFloorBefore,
            List<String> actions) {}

    /** What a run did (or, with dry run, would do). */
    record Report(
            boolean dryRun,
            List<KeyStep> keys,
            List<String> namespaceActions,
            List<SlotStep> slots,
            int changes,
            List<String> problems,
            List<String> blockers) {

        Map<String, Object> json() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("dryRun", dryRun);
            m.put("changes", changes);
            m.put("verified", problems.isEmpty());
            m.put("problems", problems);
            m.put("blockedBy", blockers);
            List<Object> k = new ArrayList<>();
            for (KeyStep s : keys) {
                Map<String, Object> e = new LinkedHashMap<>();
                e.put("key", s.key());
                e.put("sourceFinalNext", s.finalNext());
                e.put("targetNextBefore", s.targetBefore());
                e.put("targetNextAfter", s.targetAfter());
                e.put("actions", s.actions());
                k.add(e);
            }
            m.put("ranges", k);
            m.put("namespaces", namespaceActions);
            List<Object> sl = new ArrayList<>();
            for (SlotStep s : slots) {
                Map<String, Object> e = new LinkedHashMap<>();
                e.put("namespace", s.namespace());
                e.put("slot", s.slot());
                e.put("sourceFence", s.fence());
                e.put("sourceNextFloor", s.nextFloor());
                e.put("targetFenceBefore", s.targetFenceBefore());
                e.put("targetNextFloorBefore", s.targetFloorBefore());
                e.put("actions", s.actions());
                sl.add(e);
            }
            m.put("slots", sl);
            return m;
        }
    }

    private Migration() {}

    static Report run(
            Store source,
            Store target,
            Collection<String> keys,
            Collection<String> namespaces,
            boolean dryRun) {
        // 1. everything that could refuse, before any write
        Map<String, NamespaceSnapshot> snapshots = new LinkedHashMap<>();
        List<String> held = new ArrayList<>();
        List<String> blockers = new ArrayList<>();
        for (String ns : namespaces) {
            NamespaceSnapshot snapshot = source.slots().inspect(ns);
            snapshots.put(ns, snapshot);
            snapshot.held()
                    .forEach(
                            v ->
                                    held.add(
                                            ns
                                                    + " slot "
                                                    + v.slot()
                                                    + " held by '"
                                                    + v.ownerKey()
                                                    + "' (expires "
                                                    + Times.relative(v.expiresAt(), snapshot.now())
                                                    + ")"));
            Optional<Namespace> existing = target.slots().namespace(ns);
            if (existing.isPresent()
                    && !existing.get().tolerance().equals(snapshot.namespace().tolerance())) {
                blockers.add(
                        "namespace "
                                + ns
                                + " has tolerance "
                                + StoreConfig.formatDuration(existing.get().tolerance())
                                + " on the target and "
                                + StoreConfig.formatDuration(snapshot.namespace().tolerance())
                                + " on the source");
            }
        }
        if (!held.isEmpty()) {
            blockers.add(
                    "the source still has unexpired leases, which could be renewed there after"
                            + " the move; stop those instances (or wait for the leases to expire)"
                            + " and run again. Held: "
                            + String.join("; ", held));
        }
        Map<String, Optional<RangeState>> sources = new LinkedHashMap<>();
        for (String key : keys) {
            Optional<RangeState> src = source.ranges().peek(key);
            Optional<RangeState> tgt = target.ranges().peek(key);
            long finalNext = src.map(RangeState::next).orElse(0L);
            if (tgt.isPresent() && tgt.get().sealed() && tgt.get().next() < finalNext) {
                blockers.add(
                        "range key "
                                + key
                                + " is sealed on the target at "
                                + tgt.get().next()
                                + ", below the source's "
                                + finalNext);
            }
            sources.put(key, src);
        }
        if (!blockers.isEmpty() && !dryRun) {
            throw new ExitCodes.Refused(
                    ExitCodes.REFUSED,
                    "refused: " + String.join("; ", blockers) + ". Nothing was written.");
        }

        // 2. ranges: seal on the source, advance the target past it
        int changes = 0;
        List<String> problems = new ArrayList<>();
        List<KeyStep> keySteps = new ArrayList<>();
        for (Map.Entry<String, Optional<RangeState>> e : sources.entrySet()) {
            String key = e.getKey();
            Optional<RangeState> src = e.getValue();
            Long targetBefore = target.ranges().peek(key).map(RangeState::next).orElse(null);
            List<String> actions = new ArrayList<>();
            long finalNext = src.map(RangeState::next).orElse(0L);
            if (!src.map(RangeState::sealed).orElse(false)) {
                actions.add((dryRun ? "would seal" : "sealed") + " source at " + finalNext);
                changes++;
                if (!dryRun) {
                    finalNext = source.ranges().seal(key);
                }
            }
            long targetAfter = targetBefore == null ? 0 : targetBefore;
            if (targetBefore == null ? finalNext > 0 : targetBefore < finalNext) {
                actions.add((dryRun ? "would advance" : "advanced") + " target to " + finalNext);
                changes++;
                targetAfter = dryRun ? finalNext : target.ranges().advance(key, finalNext);
            }
            if (actions.isEmpty()) {
                actions.add("nothing to do");
            }
            if (!dryRun) {
                verifyKey(source, target, key, finalNext, problems);
            }
            keySteps.add(new KeyStep(key, finalNext, targetBefore, targetAfter, actions));
        }

        // 3. namespaces: define on the target, carry each slot's fence and next floor
        List<String> nsActions = new ArrayList<>();
        List<SlotStep> slotSteps = new ArrayList<>();
        for (NamespaceSnapshot snapshot : snapshots.values()) {
            Namespace ns = snapshot.namespace();
            Optional<Namespace> existing = target.slots().namespace(ns.name());
            int limit = Math.max(ns.limit(), existing.map(Namespace::limit).orElse(0));
            changes +=
                    defineOnTarget(
                            target, existing, ns.name(), limit, ns.tolerance(), dryRun, nsActions);
            Map<Integer, SlotView> targetSlots = slotsOnTarget(target, existing, ns.name());
            for (SlotView v : snapshot.slots()) {
                SlotView before = targetSlots.get(v.slot());
                long fenceBefore = before == null ? 0 : before.fence();
                Instant floorBefore = before == null ? Instant.EPOCH : before.nextFloor();
                List<String> actions = new ArrayList<>();
                if (fenceBefore < v.fence() || floorBefore.isBefore(v.nextFloor())) {
                    actions.add(
                            (dryRun ? "would advance" : "advanced")
                                    + " target to fence "
                                    + v.fence()
                                    + ", next floor "
                                    + v.nextFloor());
                    changes++;
                    if (!dryRun) {
                        SlotView after =
                                target.slots()
                                        .advance(ns.name(), v.slot(), v.fence(), v.nextFloor());
                        if (after.fence() < v.fence()
                                || after.nextFloor().isBefore(v.nextFloor())) {
                            problems.add(
                                    ns.name()
                                            + " slot "
                                            + v.slot()
                                            + " is at fence "
                                            + after.fence()
                                            + ", next floor "
                                            + after.nextFloor()
                                            + " on the target after advance");
                        }
                    }
                } else {
                    actions.add("nothing to do");
                }
                slotSteps.add(
                        new SlotStep(
                                ns.name(),
                                v.slot(),
                                v.fence(),
                                v.nextFloor(),
                                fenceBefore,
                                floorBefore,
                                actions));
            }
        }
        return new Report(dryRun, keySteps, nsActions, slotSteps, changes, problems, blockers);
    }

    /**
     * Defines (or raises) a namespace on the target unless it is there with {@code limit} slots or
     * more; says so in {@code actions}.
     *
     * @return the number of changes made (or, with dry run, that would be): 0 or 1
     */
    static int defineOnTarget(
            Store target,
            Optional<Namespace> existing,
            String name,
            int limit,
            Duration tolerance,
            boolean dryRun,
            List<String> actions) {
        if (existing.isPresent() && existing.get().limit() >= limit) {
            actions.add(name + " already defined on the target");
            return 0;
        }
        actions.add(
                (dryRun ? "would define " : "defined ")
                        + name
                        + " (limit "
                        + limit
                        + ", tolerance "
                        + StoreConfig.formatDuration(tolerance)
                        + ") on the target");
        if (!dryRun) {
            target.slots().define(name, limit, tolerance);
        }
        return 1;
    }

    /** The target's slots of a namespace by number; none if it was not defined before the run. */
    static Map<Integer, SlotView> slotsOnTarget(
            Store target, Optional<Namespace> existing, String name) {
        Map<Integer, SlotView> slots = new LinkedHashMap<>();
        if (existing.isPresent()) {
            target.slots().inspect(name).slots().forEach(v -> slots.put(v.slot(), v));
        }
        return slots;
    }

    private static void verifyKey(
            Store source, Store target, String key, long finalNext, List<String> problems) {
        RangeState src = source.ranges().peek(key).orElse(null);
        if (src == null || !src.sealed() || src.next() != finalNext) {
            problems.add(
                    "range key "
                            + key
                            + " is not sealed at "
                            + finalNext
                            + " on the source: "
                            + src);
        }
        long targetNext = target.ranges().peek(key).map(RangeState::next).orElse(0L);
        if (targetNext < finalNext) {
            problems.add(
                    "range key "
                            + key
                            + " is at "
                            + targetNext
                            + " on the target, below "
                            + finalNext);
        }
    }
}
