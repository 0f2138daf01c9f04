package io.cosid.store.cli;

import io.cosid.store.Namespace;
import io.cosid.store.RangeState;
import io.cosid.store.SlotView;
import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a migration writes on its target and says of it, the same for both migrations (from a store,
 * from CosId's own ZooKeeper layout): refusing before any write, raising a range key, defining a
 * namespace, raising a slot, counting the changes and checking each one landed. With dry run it
 * writes nothing and says what it would do.
 */
final class TargetSteps {

    private final Store target;
    private final boolean dryRun;
    private int changes;
    private final List<String> problems = new ArrayList<>();
    private final List<Migration.KeyStep> keySteps = new ArrayList<>();
    private final List<String> namespaceActions = new ArrayList<>();
    private final List<Migration.SlotStep> slotSteps = new ArrayList<>();

    TargetSteps(Store target, boolean dryRun) {
        this.target = target;
        this.dryRun = dryRun;
    }

    /** Refuses the migration, unless it is a dry run, when anything blocks it: nothing written. */
    static void refuseIfBlocked(List<String> blockers, boolean dryRun) {
        if (!blockers.isEmpty() && !dryRun) {
            throw new ExitCodes.Refused(
                    ExitCodes.REFUSED,
                    "refused: " + String.join("; ", blockers) + ". Nothing was written.");
        }
    }

    boolean dryRun() {
        return dryRun;
    }

    /** {@code done}, or under dry run "would" and {@code verb}: "sealed" or "would seal". */
    String said(String done, String verb) {
        return dryRun ? "would " + verb : done;
    }

    /** Counts a change the migration made (or would make) outside these steps: a source seal. */
    void countChange() {
        changes++;
    }

    /** Notes a problem a check after a write found. */
    void problem(String problem) {
        problems.add(problem);
    }

    /**
     * Raises range key {@code key} on the target to {@code value} unless it is there already, then
     * checks it; {@code actions} may hold what was done on the source before.
     */
    void advanceKey(String key, long value, List<String> actions) {
        Long before = target.ranges().peek(key).map(RangeState::next).orElse(null);
        long after = before == null ? 0 : before;
        if (before == null ? value > 0 : before < value) {
            actions.add(said("advanced", "advance") + " target to " + value);
            changes++;
            after = dryRun ? value : target.ranges().advance(key, value);
        }
        if (actions.isEmpty()) {
            actions.add("nothing to do");
        }
        if (!dryRun) {
            long now = target.ranges().peek(key).map(RangeState::next).orElse(0L);
            if (now < value) {
                problems.add(
                        "range key " + key + " is at " + now + " on the target, below " + value);
            }
        }
        keySteps.add(new Migration.KeyStep(key, value, before, after, actions));
    }

    /**
     * Defines (or raises) a namespace on the target unless it is there with {@code wanted} slots or
     * more (a limit is never lowered); returns the target's slots of it by number (none if it was
     * not defined before).
     */
    Map<Integer, SlotView> defineNamespace(String name, int wanted, Duration tolerance) {
        Optional<Namespace> existing = target.slots().namespace(name);
        int limit = Math.max(wanted, existing.map(Namespace::limit).orElse(0));
        if (existing.isPresent() && existing.get().limit() >= limit) {
            namespaceActions.add(name + " already defined on the target");
        } else {
            namespaceActions.add(
                    said("defined ", "define ")
                            + name
                            + " (limit "
                            + limit
                            + ", tolerance "
                            + StoreConfig.formatDuration(tolerance)
                            + ") on the target");
            changes++;
            if (!dryRun) {
                target.slots().define(name, limit, tolerance);
            }
        }
        Map<Integer, SlotView> slots = new LinkedHashMap<>();
        if (existing.isPresent()) {
            target.slots().inspect(name).slots().forEach(v -> slots.put(v.slot(), v));
        }
        return slots;
    }

    /**
     * A slot the migration wants on the target: at least {@code fence} and a next floor of at least
     * {@code floorNeeded}; it writes {@code floorWritten} (at or above the floor needed) and says
     * {@code whatItSays}.
     */
    record SlotWanted(
            String namespace,
            int slot,
            long fence,
            Instant floorNeeded,
            Instant floorWritten,
            String whatItSays) {}

    /**
     * Raises a slot on the target from ({@code fenceBefore}, {@code floorBefore}) to {@code wanted}
     * unless it is there, then checks it.
     *
     * @return whether it wrote (or, with dry run, would write), and what it says
     */
    SlotAdvanced advanceSlot(SlotWanted wanted, long fenceBefore, Instant floorBefore) {
        if (fenceBefore >= wanted.fence() && !floorBefore.isBefore(wanted.floorNeeded())) {
            return new SlotAdvanced(false, List.of("nothing to do"));
        }
        changes++;
        if (!dryRun) {
            SlotView after =
                    target.slots()
                            .advance(
                                    wanted.namespace(),
                                    wanted.slot(),
                                    wanted.fence(),
                                    wanted.floorWritten());
            if (after.fence() < wanted.fence()
                    || after.nextFloor().isBefore(wanted.floorNeeded())) {
                problems.add(
                        wanted.namespace()
                                + " slot "
                                + wanted.slot()
                                + " is at fence "
                                + after.fence()
                                + ", next floor "
                                + after.nextFloor()
                                + " on the target after advance");
            }
        }
        return new SlotAdvanced(true, List.of(wanted.whatItSays()));
    }

    /** What {@link #advanceSlot} did. */
    record SlotAdvanced(boolean wrote, List<String> actions) {}

    /** Records a slot's step for the report. */
    void slotStep(Migration.SlotStep step) {
        slotSteps.add(step);
    }

    /** The report of the run. */
    Migration.Report report(List<String> blockers) {
        return new Migration.Report(
                dryRun, keySteps, namespaceActions, slotSteps, changes, problems, blockers);
    }
}
