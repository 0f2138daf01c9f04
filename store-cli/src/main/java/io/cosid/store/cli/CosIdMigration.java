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
        checkCounters(target, counters, quietSince, now, blockers);
        for (CosIdZooKeeperLayout.MachineNamespace ns : namespaces) {
            checkNamespace(target, ns, settings, quietSince, now, blockers);
        }
        TargetSteps.refuseIfBlocked(blockers, dryRun);
        TargetSteps steps = new TargetSteps(target, dryRun);
        // 2. counters: the range key of the same name, advanced to the counter's value
        for (CosIdZooKeeperLayout.Counter c : counters) {
            steps.advanceKey(c.key(), c.value(), new ArrayList<>());
        }
        // 3. machine-id namespaces: define, then raise each used slot's next floor
        for (CosIdZooKeeperLayout.MachineNamespace ns : namespaces) {
            moveNamespace(steps, ns, settings, limit, now);
        }
        return steps.report(blockers);
    }

    /**
     * What blocks moving CosId's counters: one written lately, a key sealed lower on the target.
     */
    private static void checkCounters(
            Store target,
            List<CosIdZooKeeperLayout.Counter> counters,
            Instant quietSince,
            Instant now,
            List<String> blockers) {
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
    }

    /**
     * What blocks moving a machine-id namespace: a machine node written lately, a machine id the
     * namespace cannot hold, the namespace on the target with another tolerance or more slots.
     */
    private static void checkNamespace(
            Store target,
            CosIdZooKeeperLayout.MachineNamespace ns,
            Settings settings,
            Instant quietSince,
            Instant now,
            List<String> blockers) {
        int limit = 1 << settings.machineBit();
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

    /**
     * Defines a machine-id namespace on the target and raises the next floor of every slot up to
     * its highest machine id past the latest timestamp any CosId instance may have stamped.
     */
    private static void moveNamespace(
            TargetSteps steps,
            CosIdZooKeeperLayout.MachineNamespace ns,
            Settings settings,
            int limit,
            Instant now) {
        Map<Integer, SlotView> targetSlots =
                steps.defineNamespace(ns.name(), limit, settings.tolerance());
        // the latest timestamp any CosId instance of this namespace may have stamped
        Instant needed = ns.lastSign().plus(settings.guardDelay()).plus(settings.tolerance());
        // past every millisecond up to now (a store takes whole milliseconds only)
        Instant afterNow = now.truncatedTo(ChronoUnit.MILLIS).plusMillis(1);
        Instant firstRun = CosIdZooKeeperLayout.max(needed, afterNow.plus(settings.tolerance()));
        for (int slot = 0; slot <= ns.maxMachineId(); slot++) {
            SlotView before = targetSlots.get(slot);
            long fence = before == null ? 0 : before.fence();
            Instant floorBefore = before == null ? Instant.EPOCH : before.nextFloor();
            TargetSteps.SlotAdvanced done =
                    steps.advanceSlot(
                            new TargetSteps.SlotWanted(
                                    ns.name(),
                                    slot,
                                    fence,
                                    needed,
                                    firstRun,
                                    steps.said("raised", "raise") + " next floor to " + firstRun),
                            fence,
                            floorBefore);
            Instant floor = done.wrote() ? firstRun : floorBefore;
            steps.slotStep(
                    new Migration.SlotStep(
                            ns.name(), slot, fence, floor, fence, floorBefore, done.actions()));
        }
    }
}
