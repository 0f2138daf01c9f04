package io.cosid.store.cosid;

import io.cosid.store.NamespaceSnapshot;
import io.cosid.store.SlotView;

/** Finding one slot in what {@code inspect} showed. */
final class Slots {

    private Slots() {}

    /** The slot's view; fails the test if the slot was never used. */
    static SlotView of(NamespaceSnapshot snapshot, int slot) {
        return snapshot.slots().stream()
                .filter(s -> s.slot() == slot)
                .findFirst()
                .orElseThrow(() -> new AssertionError("slot " + slot + " was never used"));
    }
}
