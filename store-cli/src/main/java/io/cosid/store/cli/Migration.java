package io.cosid.store.cli;

import io.cosid.store.Namespace;
import io.cosid.store.NamespaceSnapshot;
import io.cosid.store.RangeState;
import io.cosid.store.SlotView;
import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
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
        List<String> blockers = new ArrayList<>();
        Map<String, NamespaceSnapshot> snapshots =
                checkNamespaces(source, target, namespaces, blockers);
        Map<String, Optional<RangeState>> sources = checkKeys(source, target, keys, blockers);
        TargetSteps.refuseIfBlocked(blockers, dryRun);
        TargetSteps steps = new TargetSteps(target, dryRun);
        // 2. ranges: seal on the source, advance the target past it
        sources.forEach((key, src) -> moveKey(source, steps, key, src));
        // 3. namespaces: define on the target, carry each slot's fence and next floor
        snapshots.values().forEach(snapshot -> moveNamespace(steps, snapshot));
        return steps.report(blockers);
    }

    /**
     * The source's namespaces; what blocks moving them: leases still held on the source, a
     * namespace with another tolerance on the target.
     */
    private static Map<String, NamespaceSnapshot> checkNamespaces(
            Store source, Store target, Collection<String> namespaces, List<String> blockers) {
        Map<String, NamespaceSnapshot> snapshots = new LinkedHashMap<>();
        List<String> held = new ArrayList<>();
        for (String ns : namespaces) {
            NamespaceSnapshot snapshot = source.slots().inspect(ns);
            snapshots.put(ns, snapshot);
            held.addAll(Views.held(ns, snapshot));
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
        return snapshots;
    }

    /** The source's range keys; what blocks moving them: a key sealed lower on the target. */
    private static Map<String, Optional<RangeState>> checkKeys(
            Store source, Store target, Collection<String> keys, List<String> blockers) {
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
        return sources;
    }

    /** Seals a key on the source (unless it is sealed) and raises the target past it. */
    private static void moveKey(
            Store source, TargetSteps steps, String key, Optional<RangeState> src) {
        List<String> actions = new ArrayList<>();
        long finalNext = src.map(RangeState::next).orElse(0L);
        if (!src.map(RangeState::sealed).orElse(false)) {
            actions.add(steps.said("sealed", "seal") + " source at " + finalNext);
            steps.countChange();
            if (!steps.dryRun()) {
                finalNext = source.ranges().seal(key);
            }
        }
        if (!steps.dryRun()) {
            RangeState sealed = source.ranges().peek(key).orElse(null);
            if (sealed == null || !sealed.sealed() || sealed.next() != finalNext) {
                steps.problem(
                        "range key "
                                + key
                                + " is not sealed at "
                                + finalNext
                                + " on the source: "
                                + sealed);
            }
        }
        steps.advanceKey(key, finalNext, actions);
    }

    /** Defines a namespace on the target and carries each slot's fence and next floor. */
    private static void moveNamespace(TargetSteps steps, NamespaceSnapshot snapshot) {
        Namespace ns = snapshot.namespace();
        Map<Integer, SlotView> targetSlots =
                steps.defineNamespace(ns.name(), ns.limit(), ns.tolerance());
        for (SlotView v : snapshot.slots()) {
            SlotView before = targetSlots.get(v.slot());
            long fenceBefore = before == null ? 0 : before.fence();
            Instant floorBefore = before == null ? Instant.EPOCH : before.nextFloor();
            String says =
                    steps.said("advanced", "advance")
                            + " target to fence "
                            + v.fence()
                            + ", next floor "
                            + v.nextFloor();
            TargetSteps.SlotAdvanced done =
                    steps.advanceSlot(
                            new TargetSteps.SlotWanted(
                                    ns.name(),
                                    v.slot(),
                                    v.fence(),
                                    v.nextFloor(),
                                    v.nextFloor(),
                                    says),
                            fenceBefore,
                            floorBefore);
            steps.slotStep(
                    new SlotStep(
                            ns.name(),
                            v.slot(),
                            v.fence(),
                            v.nextFloor(),
                            fenceBefore,
                            floorBefore,
                            done.actions()));
        }
    }
}
