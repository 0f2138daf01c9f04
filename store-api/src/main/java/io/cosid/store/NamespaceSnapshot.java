package io.cosid.store;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A namespace and its slots as read at one store instant ({@link SlotLeaseStore#inspect}).
 *
 * @param namespace the namespace
 * @param now the store's clock when the slots were read; judge expiry against it, not the local
 *     clock
 * @param slots every slot that was ever written (held or advanced), in slot order; a slot that is
 *     not listed was never used
 */
public record NamespaceSnapshot(Namespace namespace, Instant now, List<SlotView> slots) {

    /**
     * Copies the slot list.
     *
     * @param namespace as described for the record
     * @param now as described for the record
     * @param slots as described for the record
     * @throws NullPointerException if a value is null
     */
    public NamespaceSnapshot {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(now, "now");
        slots = List.copyOf(slots);
    }

    /**
     * The slots held at {@link #now()}.
     *
     * @return the held slots, in slot order
     */
    public List<SlotView> held() {
        return slots.stream().filter(s -> s.isHeldAt(now)).toList();
    }
}
