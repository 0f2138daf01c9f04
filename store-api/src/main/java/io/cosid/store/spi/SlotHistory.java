package io.cosid.store.spi;

import io.cosid.store.SlotView;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * How a slot may change between two states a store saw, by the contract's rules (docs/contract.md,
 * "Corrupt data"): fences never go back; within one term the owner and the floor stay and the
 * ceiling never goes back; and the lowest floor the slot's next term could get never goes back. A
 * later state that breaks one of these was written by hand (a node deleted and created again, a
 * fence or floor lowered), and a store that hands out a term from it could give a fence or a window
 * twice.
 *
 * <p>The lowest next floor of a slot whose latest term is open (held, or expired but never
 * released) is that term's floor, since its holder may still release it declaring the floor;
 * otherwise it is the slot's next floor.
 */
public final class SlotHistory {

    private SlotHistory() {}

    /**
     * Why {@code later} cannot follow {@code earlier} on one slot, or null when it can.
     *
     * @param earlier a state the store saw first
     * @param later a state written after it
     * @return the broken rule in words, naming both values, or null
     */
    public static @Nullable String whyNotAfter(SlotView earlier, SlotView later) {
        if (later.fence() < earlier.fence()) {
            return "its fence went back from " + earlier.fence() + " to " + later.fence();
        }
        if (later.fence() == earlier.fence()) {
            if (!later.ownerKey().equals(earlier.ownerKey())) {
                return "the owner of fence "
                        + later.fence()
                        + " changed from '"
                        + earlier.ownerKey()
                        + "' to '"
                        + later.ownerKey()
                        + "'";
            }
            if (!later.floor().equals(earlier.floor())) {
                return "the floor of fence "
                        + later.fence()
                        + " changed from "
                        + earlier.floor()
                        + " to "
                        + later.floor();
            }
            if (later.ceiling().isBefore(earlier.ceiling())) {
                return "the ceiling of fence "
                        + later.fence()
                        + " went back from "
                        + earlier.ceiling()
                        + " to "
                        + later.ceiling();
            }
        }
        if (lowestNextFloor(later).isBefore(lowestNextFloor(earlier))) {
            return "the lowest floor its next term may get went back from "
                    + lowestNextFloor(earlier)
                    + " to "
                    + lowestNextFloor(later);
        }
        return null;
    }

    /**
     * What an operator does about a slot refused against {@code mark}: advance it past what the
     * store saw (from a store that did not see it), after which every term starts above the old
     * one.
     *
     * @param mark the slot as the refusing store last saw it
     * @return the repair in words
     */
    public static String repair(SlotView mark) {
        return "repair: advance slot "
                + mark.slot()
                + " of namespace '"
                + mark.namespace()
                + "' to fence "
                + (mark.fence() + 1)
                + " and a floor of at least "
                + (mark.ceiling().isAfter(mark.nextFloor()) ? mark.ceiling() : mark.nextFloor())
                + " (the ceiling of the last term this store saw)";
    }

    /**
     * The lowest floor the slot's next term could get.
     *
     * @param view the slot
     * @return the open term's floor, else the slot's next floor
     */
    public static Instant lowestNextFloor(SlotView view) {
        boolean open = !view.released() && !view.ownerKey().isEmpty();
        return open ? view.floor() : view.nextFloor();
    }
}
