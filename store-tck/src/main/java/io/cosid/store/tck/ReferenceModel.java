package io.cosid.store.tck;

import io.cosid.store.LeaseLostException;
import io.cosid.store.NamespaceConflictException;
import io.cosid.store.NamespaceNotFoundException;
import io.cosid.store.RangeExhaustedException;
import io.cosid.store.RangeSealedException;
import io.cosid.store.SlotsExhaustedException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * The time-independent part of the contract as a second, deliberately naive model: what ranges,
 * slots, fences and incarnations every backend must produce for a sequence of operations in which
 * no lease expires. Outcomes are plain strings so that a backend's answers compare with the model's
 * by equality.
 */
final class ReferenceModel {

    private record Counter(long next, boolean sealed) {}

    private record Slot(String owner, long fence, long incarnation, boolean released) {}

    private final Map<String, Counter> counters = new HashMap<>();
    private final Map<String, Integer> limits = new HashMap<>();
    private final Map<String, Map<Integer, Slot>> slots = new HashMap<>();
    private final Map<String, List<Integer>> ownerIndex = new HashMap<>();

    String acquireRange(String key, long size) {
        Counter c = counters.getOrDefault(key, new Counter(0, false));
        if (c.sealed) {
            return RangeSealedException.class.getSimpleName();
        }
        if (size > Long.MAX_VALUE - c.next) {
            return RangeExhaustedException.class.getSimpleName();
        }
        counters.put(key, new Counter(c.next + size, false));
        return "range " + key + " [" + c.next + ", " + (c.next + size) + ")";
    }

    String advanceRange(String key, long atLeast) {
        Counter c = counters.getOrDefault(key, new Counter(0, false));
        if (c.sealed) {
            return RangeSealedException.class.getSimpleName();
        }
        long next = Math.max(c.next, atLeast);
        counters.put(key, new Counter(next, false));
        return "next " + next;
    }

    String sealRange(String key) {
        Counter c = counters.getOrDefault(key, new Counter(0, false));
        counters.put(key, new Counter(c.next, true));
        return "sealed at " + c.next;
    }

    String peekRange(String key) {
        Counter c = counters.get(key);
        return c == null ? "absent" : "next " + c.next + (c.sealed ? " sealed" : "");
    }

    String define(String ns, int limit) {
        Integer existing = limits.get(ns);
        if (existing != null && limit < existing) {
            return NamespaceConflictException.class.getSimpleName();
        }
        int stored = existing == null ? limit : Math.max(existing, limit);
        limits.put(ns, stored);
        return "namespace " + ns + " limit " + stored;
    }

    String acquireSlot(String ns, String owner, OptionalInt preferred) {
        Integer limit = limits.get(ns);
        if (limit == null) {
            return NamespaceNotFoundException.class.getSimpleName();
        }
        if (preferred.isPresent() && preferred.getAsInt() >= limit) {
            return IllegalArgumentException.class.getSimpleName();
        }
        Map<Integer, Slot> nsSlots = slots.computeIfAbsent(ns, n -> new HashMap<>());
        List<Integer> index = ownerIndex.getOrDefault(ns + "/" + owner, List.of());
        LinkedHashSet<Integer> candidates = new LinkedHashSet<>();
        index.stream().filter(s -> s < limit).forEach(candidates::add);
        preferred.ifPresent(candidates::add);
        for (int s = 0; s < limit; s++) {
            candidates.add(s);
        }
        for (int s : candidates) {
            Slot current = nsSlots.get(s);
            if (current == null || current.released) {
                long fence = current == null ? 1 : current.fence + 1;
                long incarnation =
                        current != null && current.owner.equals(owner)
                                ? current.incarnation + 1
                                : 1;
                nsSlots.put(s, new Slot(owner, fence, incarnation, false));
                LinkedHashSet<Integer> updated = new LinkedHashSet<>();
                updated.add(s);
                updated.addAll(index);
                ownerIndex.put(
                        ns + "/" + owner,
                        new ArrayList<>(updated).subList(0, Math.min(8, updated.size())));
                return lease(s, owner, fence, incarnation);
            }
        }
        return SlotsExhaustedException.class.getSimpleName();
    }

    String renew(String ns, int slot, String owner, long fence, long incarnation) {
        Slot current = slots.getOrDefault(ns, Map.of()).get(slot);
        if (current == null
                || current.fence != fence
                || !current.owner.equals(owner)
                || current.released) {
            return LeaseLostException.class.getSimpleName();
        }
        return lease(slot, owner, fence, incarnation);
    }

    String release(String ns, int slot, String owner, long fence) {
        Slot current = slots.getOrDefault(ns, Map.of()).get(slot);
        if (current == null || current.fence != fence || !current.owner.equals(owner)) {
            return LeaseLostException.class.getSimpleName();
        }
        slots.computeIfAbsent(ns, k -> new HashMap<>())
                .put(slot, new Slot(owner, fence, current.incarnation, true));
        return "released";
    }

    static String lease(int slot, String owner, long fence, long incarnation) {
        return "slot "
                + slot
                + " owner "
                + owner
                + " fence "
                + fence
                + " incarnation "
                + incarnation;
    }
}
