package io.cosid.store.cli;

import io.cosid.store.SlotLease;
import io.cosid.store.cli.DemoFleet.LeaseEvent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The terms each slot went through during the demo, and the checks over them. */
final class DemoReport {

    /** One term of a slot: who, which fence, its window and how it ended. */
    static final class Term {
        final int slot;
        final long fence;
        final String owner;
        final long incarnation;
        final Instant floor;
        Instant ceiling;
        String ended = "held";
        Instant endedAt;

        Term(SlotLease lease) {
            slot = lease.slot();
            fence = lease.fence();
            owner = lease.ownerKey();
            incarnation = lease.incarnation();
            floor = lease.floor();
            ceiling = lease.ceiling();
        }

        /** Where the holder's timestamps end: the ceiling, or a release before it. */
        Instant windowEnd() {
            return ended.equals("released") && endedAt.isBefore(ceiling) ? endedAt : ceiling;
        }
    }

    final Map<Integer, List<Term>> bySlot = new TreeMap<>();
    final List<String> takeovers = new ArrayList<>();
    final List<String> overlaps = new ArrayList<>();
    int terms;

    DemoReport(Collection<LeaseEvent> events) {
        Map<String, Term> byFence = new TreeMap<>();
        for (LeaseEvent e : events) {
            String id = e.lease().slot() + "#" + e.lease().fence();
            switch (e.kind()) {
                case "acquired" -> byFence.put(id, new Term(e.lease()));
                case "renewed" -> {
                    Term t = byFence.get(id);
                    if (t != null && e.lease().ceiling().isAfter(t.ceiling)) {
                        t.ceiling = e.lease().ceiling();
                    }
                }
                default -> {
                    Term t = byFence.get(id);
                    if (t != null) {
                        t.ended = e.kind();
                        t.endedAt = e.at();
                    }
                }
            }
        }
        byFence.values()
                .forEach(t -> bySlot.computeIfAbsent(t.slot, s -> new ArrayList<>()).add(t));
        for (List<Term> slotTerms : bySlot.values()) {
            slotTerms.sort((a, b) -> Long.compare(a.fence, b.fence));
            terms += slotTerms.size();
            Instant end = Instant.MIN;
            Term previous = null;
            for (Term t : slotTerms) {
                if (previous != null) {
                    if (t.fence <= previous.fence) {
                        overlaps.add(
                                "slot "
                                        + t.slot
                                        + ": fence "
                                        + t.fence
                                        + " after "
                                        + previous.fence);
                    }
                    if (t.floor.isBefore(end)) {
                        overlaps.add(
                                "slot "
                                        + t.slot
                                        + ": fence "
                                        + t.fence
                                        + " window starts at "
                                        + t.floor
                                        + ", before an earlier window ends at "
                                        + end);
                    }
                    if (!previous.ended.equals("released") && !previous.owner.equals(t.owner)) {
                        takeovers.add(
                                "slot "
                                        + t.slot
                                        + ": "
                                        + previous.owner
                                        + " (fence "
                                        + previous.fence
                                        + ", ceiling "
                                        + previous.ceiling
                                        + ", "
                                        + previous.ended
                                        + ") -> "
                                        + t.owner
                                        + " (fence "
                                        + t.fence
                                        + ", floor "
                                        + t.floor
                                        + ")");
                    }
                }
                end = end.isAfter(t.windowEnd()) ? end : t.windowEnd();
                previous = t;
            }
        }
    }
}
