package io.cosid.store.cli;

import io.cosid.store.Namespace;
import io.cosid.store.RangeState;
import io.cosid.store.SlotView;
import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Takes a deployment from CosId's own ZooKeeper layout onto a cosid-store store, so that the store
 * never hands out a segment ID or a timestamp window that CosId already used (docs/operations.md,
 * "From CosId's ZooKeeper layout"):
 *
 * <ul>
 *   <li>each segment counter becomes the range key of the same name, advanced to the counter's
 *       value: {@code StoreIdSegmentDistributor} then hands out IDs from value + 1;
 *   <li>each machine-id namespace is defined with {@code 2^machineBit} slots, and every machine id
 *       CosId may have handed out gets a next floor past the last time an instance of it was seen
 *       alive, plus one guard delay (what an instance may stamp after its last guard) and the
 *       tolerance; on the first run, at least the migration's own clock plus the tolerance, since
 *       no CosId instance runs any more.
 * </ul>
 *
 * <p>Nothing is written while a CosId node was written within the quiet period (an instance may
 * still be guarding or drawing segments). Every step is a no-op when done, so a second run changes
 * nothing; counters are read again afterwards, and one that moved is reported.
 */
final class CosIdMigration {

    /** What the operator set: the namespace shape, CosId's guard delay, the quiet period. */
    record Settings(int machineBit, Duration tolerance, Duration guardDelay, Duration quietFor) {}

    private CosIdMigration() {}

    /**
     * The counters that moved between the read the migration worked from and a read after it: a
     * CosId instance still draws from them, and the target may be behind.
     */
    static List<String> moved(
            List<CosIdZooKeeperLayout.Counter> migrated, CosIdZooKeeperLayout after) {
        Map<String, Long> now = new HashMap<>();
        after.counters().forEach(a -> now.put(a.key(), a.value()));
        List<String> problems = new ArrayList<>();
        for (CosIdZooKeeperLayout.Counter c : migrated) {
            Long value = now.get(c.key());
            if (value != null && value != c.value()) {
                problems.add(
                        "CosId's counter "
                                + c.key()
                                + " moved from "
                                + c.value()
                                + " to "
                                + value
                                + " during the migration: a CosId instance still draws from it;"
                                + " stop it and run again");
            }
        }
        return problems;
    }

    static Migration.Report run(
            Store target,
            List<CosIdZooKeeperLayout.Counter> counters,
            List<CosIdZooKeeperLayout.MachineNamespace> namespaces,
            Settings settings,
            Instant now,
            boolean dryRun) {
        int limit = 1 << settings.machineBit();
        // 1. everything that could refuse, before any write
        List<String> blockers = new ArrayList<>();
        Instant quietSince = now.minus(settings.quietFor());
        for (CosIdZooKeeperLayout.Counter c : counters) {
            if (c.modified().isAfter(quietSince)) {
                blockers.add(
                        "CosId's counter "
                                + c.key()
                                + " was written "
                                + Times.relative(c.modified(), now)
                                + ": an instance may still draw segments from it");
            }
            Optional<RangeState> tgt = target.ranges().peek(c.key());
            if (tgt.isPresent() && tgt.get().sealed() && tgt.get().next() < c.value()) {
                blockers.add(
                        "range key "
                                + c.key()
                                + " is sealed on the target at "
                                + tgt.get().next()
                                + ", below CosId's "
                                + c.value());
            }
        }
        for (CosIdZooKeeperLayout.MachineNamespace ns : namespaces) {
            for (CosIdZooKeeperLayout.MachineNode n : ns.nodes()) {
                if (n.modified().isAfter(quietSince)) {
                    blockers.add(
                            n.path()
                                    + " was written "
                                    + Times.relative(n.modified(), now)
                                    + ": a CosId instance may still be guarding machine id "
                                    + n.machineId()
                                    + "; stop CosId's instances and run again after "
                                    + StoreConfig.formatDuration(settings.quietFor()));
                }
            }
            if (ns.maxMachineId() >= limit) {
                blockers.add(
                        "namespace "
                                + ns.name()
                                + " has machine id "
                                + ns.maxMachineId()
                                + ", beyond --machine-bit "
                                + settings.machineBit()
                                + " ("
                                + limit
                                + " slots)");
            }
            Optional<Namespace> existing = target.slots().namespace(ns.name());
            if (existing.isPresent() && !existing.get().tolerance().equals(settings.tolerance())) {
                blockers.add(
                        "namespace "
                                + ns.name()
                                + " has tolerance "
                                + StoreConfig.formatDuration(existing.get().tolerance())
                                + " on the target, not --tolerance "
                                + StoreConfig.formatDuration(settings.tolerance()));
            }
            if (existing.isPresent() && existing.get().limit() > limit) {
                blockers.add(
                        "namespace "
                                + ns.name()
                                + " has "
                                + existing.get().limit()
                                + " slots on the target, more than --machine-bit "
                                + settings.machineBit()
                                + " gives");
            }
        }
        if (!blockers.isEmpty() && !dryRun) {
            throw new ExitCodes.Refused(
                    ExitCodes.REFUSED,
                    "refused: " + String.join("; ", blockers) + ". Nothing was written.");
        }

        // 2. counters: the range key of the same name, advanced to the counter's value
        int changes = 0;
        List<String> problems = new ArrayList<>();
        List<Migration.KeyStep> keySteps = new ArrayList<>();
        for (CosIdZooKeeperLayout.Counter c : counters) {
            Long before = target.ranges().peek(c.key()).map(RangeState::next).orElse(null);
            long after = before == null ? 0 : before;
            List<String> actions = new ArrayList<>();
            if (before == null ? c.value() > 0 : before < c.value()) {
                actions.add((dryRun ? "would advance" : "advanced") + " target to " + c.value());
                changes++;
                after = dryRun ? c.value() : target.ranges().advance(c.key(), c.value());
            } else {
                actions.add("nothing to do");
            }
            if (!dryRun) {
                long now2 = target.ranges().peek(c.key()).map(RangeState::next).orElse(0L);
                if (now2 < c.value()) {
                    problems.add(
                            "range key "
                                    + c.key()
                                    + " is at "
                                    + now2
                                    + " on the target, below "
                                    + c.value());
                }
            }
            keySteps.add(new Migration.KeyStep(c.key(), c.value(), before, after, actions));
        }

        // 3. machine-id namespaces: define, then raise each used slot's next floor
        List<String> nsActions = new ArrayList<>();
        List<Migration.SlotStep> slotSteps = new ArrayList<>();
        for (CosIdZooKeeperLayout.MachineNamespace ns : namespaces) {
            Optional<Namespace> existing = target.slots().namespace(ns.name());
            changes +=
                    Migration.defineOnTarget(
                            target,
                            existing,
                            ns.name(),
                            limit,
                            settings.tolerance(),
                            dryRun,
                            nsActions);
            // the latest timestamp any CosId instance of this namespace may have stamped
            Instant needed = ns.lastSign().plus(settings.guardDelay()).plus(settings.tolerance());
            // past every millisecond up to now (a store takes whole milliseconds only)
            Instant afterNow = now.truncatedTo(ChronoUnit.MILLIS).plusMillis(1);
            Instant firstRun =
                    CosIdZooKeeperLayout.max(needed, afterNow.plus(settings.tolerance()));
            Map<Integer, SlotView> targetSlots =
                    Migration.slotsOnTarget(target, existing, ns.name());
            for (int slot = 0; slot <= ns.maxMachineId(); slot++) {
                SlotView before = targetSlots.get(slot);
                long fence = before == null ? 0 : before.fence();
                Instant floorBefore = before == null ? Instant.EPOCH : before.nextFloor();
                List<String> actions = new ArrayList<>();
                Instant floor = floorBefore;
                if (floorBefore.isBefore(needed)) {
                    floor = firstRun;
                    actions.add((dryRun ? "would raise" : "raised") + " next floor to " + floor);
                    changes++;
                    if (!dryRun) {
                        SlotView after = target.slots().advance(ns.name(), slot, fence, firstRun);
                        if (after.nextFloor().isBefore(needed)) {
                            problems.add(
                                    ns.name()
                                            + " slot "
                                            + slot
                                            + " has next floor "
                                            + after.nextFloor()
                                            + " on the target after advance");
                        }
                    }
                } else {
                    actions.add("nothing to do");
                }
                slotSteps.add(
                        new Migration.SlotStep(
                                ns.name(), slot, fence, floor, fence, floorBefore, actions));
            }
        }
        return new Migration.Report(
                dryRun, keySteps, nsActions, slotSteps, changes, problems, blockers);
    }
}
