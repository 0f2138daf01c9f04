package io.cosid.store.spi;

import io.cosid.store.Namespace;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;

/**
 * The order in which an acquire tries slots (docs/contract.md, "SlotLeaseStore", choice order): the
 * slots the owner index lists, most recent first and only those inside the namespace's limit, then
 * the preferred slot, then the lowest-numbered free slot. A backend that reads in batches or
 * spreads a herd of acquires over several of the lowest free slots still starts from these first
 * choices.
 */
public final class SlotChoiceOrder {

    private SlotChoiceOrder() {}

    /**
     * The slots tried before the lowest-numbered free one, in order, each once.
     *
     * @param namespace the namespace, for its limit
     * @param ownerIndex the owner key's index, most recent first (it may list slots beyond a limit
     *     read later)
     * @param preferred the caller's preferred slot, already checked to lie inside the namespace
     * @return the first choices, in the order they are tried
     */
    public static List<Integer> firstChoices(
            Namespace namespace, List<Integer> ownerIndex, OptionalInt preferred) {
        Set<Integer> choices = new LinkedHashSet<>();
        ownerIndex.stream().filter(namespace::contains).forEach(choices::add);
        preferred.ifPresent(choices::add);
        return List.copyOf(choices);
    }
}
