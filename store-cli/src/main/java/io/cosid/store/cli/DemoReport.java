package io.cosid.store.cli;

import io.cosid.store.SlotLease;
import io.cosid.store.StoreConfig;
import io.cosid.store.cli.DemoFleet.LeaseEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

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
        @Nullable Instant endedAt;

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
            Instant released = endedAt;
            return ended.equals("released") && released != null && released.isBefore(ceiling)
                    ? released
                    : ceiling;
        }
    }

    final Map<Integer, List<Term>> bySlot = new TreeMap<>();
    final List<String> takeovers = new ArrayList<>();
    final List<String> overlaps = new ArrayList<>();

    /** Leases lost during the run: an instance not renewed within its ttl. */
    final List<String> lost = new ArrayList<>();

    /**
     * Leases that lapsed and were renewed after all: a renewal sent once the last one's ttl had run
     * out (the store answered late), so the instance stamped nothing in between.
     */
    final List<String> lapsed = new ArrayList<>();

    int terms;

    DemoReport(Collection<LeaseEvent> events) {
        Map<String, Term> byFence = new TreeMap<>();
        for (LeaseEvent e : events) {
            String id = e.lease().slot() + "#" + e.lease().fence();
            if (e.kind().equals("lost")) {
                lost.add(whose(e));
            }
            switch (e.kind()) {
                case "lapsed" -> lapsed.add(whose(e));
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
            slotTerms.sort((x, y) -> Long.compare(x.fence, y.fence));
            terms += slotTerms.size();
            checkSlot(slotTerms);
        }
    }

    /** The lease of {@code e} in words: its holder, slot and fence. */
    private static String whose(LeaseEvent e) {
        return e.owner() + " on slot " + e.lease().slot() + " (fence " + e.lease().fence() + ")";
    }

    /** Checks one slot's terms in fence order: fences rise, windows do not overlap, takeovers. */
    private void checkSlot(List<Term> slotTerms) {
        Instant end = Instant.MIN;
        @Nullable Term previous = null;
        for (Term t : slotTerms) {
            if (previous != null) {
                if (t.fence <= previous.fence) {
                    overlaps.add(
                            "slot " + t.slot + ": fence " + t.fence + " after " + previous.fence);
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

    /**
     * What went otherwise than planned and why, in words for the summary: lost leases, an instance
     * crashed without a machine id, restarts that came back on another slot, timeouts. Empty when
     * the run went as planned.
     */
    List<String> explain(
            List<String> crashed,
            List<Integer> crashedSlots,
            List<Integer> restartedSlots,
            Duration ttl,
            int timeouts) {
        List<String> why = new ArrayList<>();
        if (!lost.isEmpty()) {
            why.add(
                    lost.size()
                            + " lease(s) lost ("
                            + String.join(", ", lost)
                            + "): not renewed within the ttl of "
                            + StoreConfig.formatDuration(ttl)
                            + ", as when the machine's CPUs are busy (the guard ran late) or the"
                            + " store answered late; each stopped generating at once"
                            + " (LeaseBoundSnowflakeId) and took a machine id again, so IDs stayed"
                            + " unique");
        }
        if (!lapsed.isEmpty()) {
            why.add(
                    lapsed.size()
                            + " renewal(s) came after the lease had lapsed ("
                            + String.join(", ", lapsed)
                            + "): sent more than the ttl of "
                            + StoreConfig.formatDuration(ttl)
                            + " after the one before, as when the store stops answering for a"
                            + " while; the instance stamped nothing until it renewed, so its"
                            + " generation paused and IDs stayed unique");
        }
        for (int i = 0; i < crashed.size(); i++) {
            int before = crashedSlots.get(i);
            int after = i < restartedSlots.size() ? restartedSlots.get(i) : -1;
            if (before < 0) {
                why.add(
                        crashed.get(i)
                                + " held no machine id when it was crashed (it had lost its lease"
                                + " and not yet taken another), so no lease of it had to expire");
            } else if (after != before) {
                why.add(
                        crashed.get(i)
                                + " came back on slot "
                                + after
                                + ", not "
                                + before
                                + ": its slot was not free when it restarted (another instance"
                                + " held it, or its lease had not yet expired)");
            }
        }
        if (timeouts > 0) {
            why.add(
                    timeouts
                            + " store operation(s) timed out (listed below): the instances went on;"
                            + " a busy machine or a slow server");
        }
        return why;
    }
}
