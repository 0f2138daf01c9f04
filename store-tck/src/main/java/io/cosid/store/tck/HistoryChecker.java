package io.cosid.store.tck;

import io.cosid.store.Range;
import io.cosid.store.SlotLease;
import io.cosid.store.tck.HistoryEvent.LeaseGranted;
import io.cosid.store.tck.HistoryEvent.LeaseReleaseUnknown;
import io.cosid.store.tck.HistoryEvent.LeaseReleased;
import io.cosid.store.tck.HistoryEvent.LeaseRenewed;
import io.cosid.store.tck.HistoryEvent.RangeGranted;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * Checks the contract's invariants over a recorded history (docs/contract.md, "Invariants"):
 *
 * <ol>
 *   <li>ranges of a key never share a value;
 *   <li>at most one unexpired, unreleased lease per slot: a term starts only after the term before
 *       it expired or was released;
 *   <li>the windows {@code [floor, ceiling)} of a slot's terms are disjoint and ordered by fence;
 *   <li>fences of a slot strictly increase in real-time order; {@code expiresAt} and {@code
 *       ceiling} never decrease within a term;
 *   <li>a stale lease neither renews nor releases;
 *   <li>no slot at or above the namespace's limit.
 * </ol>
 *
 * Every check is sound for partial histories (operations whose outcome the test did not see): a
 * missing event can only make a check weaker, never report a violation that did not happen.
 */
public final class HistoryChecker {

    private HistoryChecker() {}

    /**
     * What a check found.
     *
     * @param ranges ranges checked
     * @param values values handed out in all ranges
     * @param gaps values skipped between ranges of a key (lost, allowed)
     * @param duplicates values handed out more than once (must be 0)
     * @param leaseEvents lease events checked
     * @param terms distinct slot terms seen
     * @param overlaps pairs of terms whose windows or holding overlap (must be 0)
     * @param violations every broken invariant, described
     */
    public record Report(
            long ranges,
            long values,
            long gaps,
            long duplicates,
            long leaseEvents,
            long terms,
            long overlaps,
            List<String> violations) {

        /**
         * Whether no invariant was broken.
         *
         * @return {@code true} when there are no violations
         */
        public boolean isValid() {
            return violations.isEmpty();
        }

        /**
         * Fails with every violation when an invariant was broken.
         *
         * @return this report, when valid
         * @throws AssertionError listing the violations
         */
        public Report assertValid() {
            if (!isValid()) {
                throw new AssertionError(
                        violations.size()
                                + " invariant violation(s) in "
                                + summary()
                                + ":\n  "
                                + violations.stream()
                                        .limit(25)
                                        .collect(Collectors.joining("\n  ")));
            }
            return this;
        }

        /**
         * The figures on one line.
         *
         * @return a summary for logs and reports
         */
        public String summary() {
            return "ranges="
                    + ranges
                    + " values="
                    + values
                    + " gaps="
                    + gaps
                    + " duplicates="
                    + duplicates
                    + " leaseEvents="
                    + leaseEvents
                    + " terms="
                    + terms
                    + " overlaps="
                    + overlaps;
        }
    }

    /**
     * Checks a history.
     *
     * @param events the recorded events, in any order
     * @return the report; call {@link Report#assertValid()} to fail on a violation
     */
    public static Report check(List<HistoryEvent> events) {
        List<String> violations = new ArrayList<>();
        long[] rangeFigures = checkRanges(events, violations);
        long[] leaseFigures = checkLeases(events, violations);
        return new Report(
                rangeFigures[0],
                rangeFigures[1],
                rangeFigures[2],
                rangeFigures[3],
                leaseFigures[0],
                leaseFigures[1],
                leaseFigures[2],
                List.copyOf(violations));
    }

    /** Returns {ranges, values, gaps, duplicates}. */
    private static long[] checkRanges(List<HistoryEvent> events, List<String> violations) {
        Map<String, List<Range>> byKey = new TreeMap<>();
        for (HistoryEvent e : events) {
            if (e instanceof RangeGranted g) {
                byKey.computeIfAbsent(g.range().key(), k -> new ArrayList<>()).add(g.range());
            }
        }
        long ranges = 0, values = 0, gaps = 0, duplicates = 0;
        for (List<Range> list : byKey.values()) {
            list.sort(Comparator.comparingLong(Range::start));
            long reached = -1;
            Range furthest = null;
            for (Range r : list) {
                ranges++;
                values += r.size();
                if (furthest != null && r.start() < reached) {
                    duplicates += Math.min(reached, r.end()) - r.start();
                    violations.add("duplicate values: " + r + " overlaps " + furthest);
                } else if (furthest != null && r.start() > reached) {
                    gaps += r.start() - reached;
                }
                if (r.end() > reached) {
                    reached = r.end();
                    furthest = r;
                }
            }
        }
        return new long[] {ranges, values, gaps, duplicates};
    }

    /** Returns {leaseEvents, terms, overlaps}. */
    private static long[] checkLeases(List<HistoryEvent> events, List<String> violations) {
        Map<String, List<HistoryEvent>> bySlot = new TreeMap<>();
        long leaseEvents = 0;
        for (HistoryEvent e : events) {
            SlotLease lease = leaseIfAny(e);
            if (lease != null) {
                leaseEvents++;
                bySlot.computeIfAbsent(
                                lease.namespace() + "#" + lease.slot(), k -> new ArrayList<>())
                        .add(e);
            }
        }
        long terms = 0, overlaps = 0;
        for (Map.Entry<String, List<HistoryEvent>> slot : bySlot.entrySet()) {
            long[] figures = checkSlot(slot.getKey(), slot.getValue(), violations);
            terms += figures[0];
            overlaps += figures[1];
        }
        return new long[] {leaseEvents, terms, overlaps};
    }

    /** One term of a slot as the history shows it. */
    private static final class Term {
        final long fence;
        @Nullable LeaseGranted grant;
        final List<HistoryEvent> writes = new ArrayList<>(); // grant and renews
        @Nullable LeaseReleased release;
        final List<LeaseReleaseUnknown> unknownReleases = new ArrayList<>();
        Instant maxExpiresAt = Instant.MIN;
        Instant maxCeiling = Instant.MIN;

        Term(long fence) {
            this.fence = fence;
        }

        /**
         * Where the term's window ends: the final ceiling, or the bound its release returned. A
         * release with an unknown outcome may have cut it at a bound nobody saw: {@code max(floor,
         * min(ceiling, stampedBefore))} for one that declared {@code stampedBefore}, the ceiling
         * for one that declared nothing. That is assumed unless the holder renewed the term
         * successfully afterwards.
         */
        Instant windowEnd() {
            Instant end = maxCeiling;
            if (release != null && release.windowEnd().isBefore(end)) {
                end = release.windowEnd();
            }
            for (LeaseReleaseUnknown attempt : unknownReleases) {
                boolean renewedAfter =
                        writes.stream()
                                .anyMatch(
                                        w ->
                                                w instanceof LeaseRenewed
                                                        && w.invokedAt() > attempt.completedAt());
                if (!renewedAfter && attempt.stampedBefore() != null) {
                    Instant floor = leaseOf(writes.get(0)).floor();
                    Instant lowest =
                            attempt.stampedBefore().isBefore(maxCeiling)
                                    ? attempt.stampedBefore()
                                    : maxCeiling;
                    lowest = lowest.isAfter(floor) ? lowest : floor;
                    if (lowest.isBefore(end)) {
                        end = lowest;
                    }
                }
            }
            return end;
        }

        /**
         * Released for sure, or possibly (a release whose outcome is unknown and no renew after
         * it).
         */
        boolean maybeReleased() {
            return release != null || unknownReleases.stream().anyMatch(this::noRenewAfter);
        }

        private boolean noRenewAfter(LeaseReleaseUnknown release) {
            return writes.stream()
                    .noneMatch(
                            w ->
                                    w instanceof LeaseRenewed
                                            && w.invokedAt() > release.completedAt());
        }
    }

    /** Returns {terms, overlaps}. */
    private static long[] checkSlot(
            String slot, List<HistoryEvent> events, List<String> violations) {
        TreeMap<Long, Term> terms = new TreeMap<>();
        List<LeaseGranted> grants = new ArrayList<>();
        for (HistoryEvent e : events) {
            SlotLease lease = leaseOf(e);
            Term term = terms.computeIfAbsent(lease.fence(), Term::new);
            if (e instanceof LeaseGranted g) {
                if (term.grant != null) {
                    violations.add(
                            slot
                                    + ": fence "
                                    + lease.fence()
                                    + " was granted twice: "
                                    + term.grant.lease()
                                    + " and "
                                    + lease);
                }
                term.grant = g;
                grants.add(g);
                if (g.limit() >= 0 && lease.slot() >= g.limit()) {
                    violations.add(
                            slot
                                    + ": slot handed out at or above the limit "
                                    + g.limit()
                                    + ": "
                                    + lease);
                }
            }
            if (e instanceof LeaseReleased r) {
                term.release = r;
            } else if (e instanceof LeaseReleaseUnknown u) {
                term.unknownReleases.add(u);
            } else {
                term.writes.add(e);
                term.maxExpiresAt = max(term.maxExpiresAt, lease.expiresAt());
                term.maxCeiling = max(term.maxCeiling, lease.ceiling());
            }
        }
        checkFencesFollowRealTime(slot, grants, violations);
        checkStaleOperations(slot, events, grants, violations);
        terms.values().forEach(t -> checkTermMonotone(slot, t, violations));
        long overlaps = checkTermsDisjoint(slot, terms, violations);
        return new long[] {terms.size(), overlaps};
    }

    /** A grant that completed before another was invoked has the smaller fence. */
    private static void checkFencesFollowRealTime(
            String slot, List<LeaseGranted> grants, List<String> violations) {
        List<LeaseGranted> byFenceDesc = new ArrayList<>(grants);
        byFenceDesc.sort(
                Comparator.comparingLong((LeaseGranted g) -> g.lease().fence()).reversed());
        LeaseGranted earliestLarger = null;
        for (LeaseGranted g : byFenceDesc) {
            if (earliestLarger != null && earliestLarger.completedAt() < g.invokedAt()) {
                violations.add(
                        slot
                                + ": fence went back in real time: "
                                + earliestLarger.lease().fence()
                                + " was granted before "
                                + g.lease().fence());
            }
            if (earliestLarger == null || g.completedAt() < earliestLarger.completedAt()) {
                earliestLarger = g;
            }
        }
    }

    /** A renew or release invoked after a later term was granted must not succeed. */
    private static void checkStaleOperations(
            String slot,
            List<HistoryEvent> events,
            List<LeaseGranted> grants,
            List<String> violations) {
        TreeMap<Long, Long> earliestGrantAtOrAbove = new TreeMap<>();
        List<LeaseGranted> byFenceDesc = new ArrayList<>(grants);
        byFenceDesc.sort(
                Comparator.comparingLong((LeaseGranted g) -> g.lease().fence()).reversed());
        long earliest = Long.MAX_VALUE;
        for (LeaseGranted g : byFenceDesc) {
            earliest = Math.min(earliest, g.completedAt());
            earliestGrantAtOrAbove.put(g.lease().fence(), earliest);
        }
        for (HistoryEvent e : events) {
            if (e instanceof LeaseGranted || e instanceof LeaseReleaseUnknown) {
                continue;
            }
            SlotLease lease = leaseOf(e);
            Map.Entry<Long, Long> later = earliestGrantAtOrAbove.higherEntry(lease.fence());
            if (later != null && later.getValue() < e.invokedAt()) {
                violations.add(
                        slot
                                + ": stale lease with fence "
                                + lease.fence()
                                + " succeeded in "
                                + e.getClass().getSimpleName()
                                + " after fence "
                                + later.getKey()
                                + " was granted");
            }
        }
    }

    /**
     * Within a term: one owner and floor; expiresAt and ceiling never go back in real-time order.
     */
    private static void checkTermMonotone(String slot, Term term, List<String> violations) {
        List<HistoryEvent> writes = new ArrayList<>(term.writes);
        for (HistoryEvent w : writes) {
            SlotLease first = leaseOf(writes.get(0));
            SlotLease lease = leaseOf(w);
            if (!lease.floor().equals(first.floor())
                    || !lease.ownerKey().equals(first.ownerKey())) {
                violations.add(
                        slot
                                + ": term "
                                + term.fence
                                + " changed its floor or owner: "
                                + first
                                + " vs "
                                + lease);
            }
        }
        List<HistoryEvent> byCompletion = new ArrayList<>(writes);
        byCompletion.sort(Comparator.comparingLong(HistoryEvent::completedAt));
        writes.sort(Comparator.comparingLong(HistoryEvent::invokedAt));
        int done = 0;
        Instant expiresBefore = Instant.MIN;
        Instant ceilingBefore = Instant.MIN;
        for (HistoryEvent w : writes) {
            while (done < byCompletion.size()
                    && byCompletion.get(done).completedAt() < w.invokedAt()) {
                SlotLease earlier = leaseOf(byCompletion.get(done++));
                expiresBefore = max(expiresBefore, earlier.expiresAt());
                ceilingBefore = max(ceilingBefore, earlier.ceiling());
            }
            SlotLease lease = leaseOf(w);
            if (lease.expiresAt().isBefore(expiresBefore)
                    || lease.ceiling().isBefore(ceilingBefore)) {
                violations.add(
                        slot
                                + ": term "
                                + term.fence
                                + " went back: expiresAt/ceiling "
                                + lease.expiresAt()
                                + "/"
                                + lease.ceiling()
                                + " after "
                                + expiresBefore
                                + "/"
                                + ceilingBefore);
            }
        }
    }

    /**
     * Terms in fence order: each window starts at or after the end of every earlier window; and a
     * term starts (its first write's store time, {@code expiresAt - ttl}) only after the term just
     * before it (fence - 1) expired, unless that one was released. Only the term just before
     * counts: every earlier term was superseded by it (its fence is stale), and when the store's
     * clock steps back, store instants of older terms are no longer comparable. A fence gap (a
     * grant the history missed) skips the check.
     */
    private static long checkTermsDisjoint(
            String slot, SortedMap<Long, Term> terms, List<String> violations) {
        long overlaps = 0;
        Instant windowsEnd = Instant.MIN;
        Term previous = null;
        for (Term term : terms.values()) {
            if (term.grant != null && previous != null) {
                SlotLease lease = term.grant.lease();
                if (lease.floor().isBefore(windowsEnd)) {
                    overlaps++;
                    violations.add(
                            slot
                                    + ": window of fence "
                                    + term.fence
                                    + " starts at "
                                    + lease.floor()
                                    + ", before an earlier window ends at "
                                    + windowsEnd);
                }
                Instant start = lease.expiresAt().minus(lease.ttl());
                if (previous.fence == term.fence - 1
                        && !previous.maybeReleased()
                        && start.isBefore(previous.maxExpiresAt)) {
                    overlaps++;
                    violations.add(
                            slot
                                    + ": fence "
                                    + term.fence
                                    + " was granted at store time "
                                    + start
                                    + " while the unreleased term before it (fence "
                                    + previous.fence
                                    + ") held the slot until "
                                    + previous.maxExpiresAt
                                    + "; granted "
                                    + lease
                                    + ", earlier writes "
                                    + previous.writes);
                }
            }
            windowsEnd = max(windowsEnd, term.windowEnd());
            previous = term;
        }
        return overlaps;
    }

    /** The lease of an event about a lease; only such events reach here (grouped by slot). */
    private static SlotLease leaseOf(HistoryEvent e) {
        SlotLease lease = leaseIfAny(e);
        if (lease == null) {
            throw new IllegalStateException("not an event about a lease: " + e);
        }
        return lease;
    }

    private static @Nullable SlotLease leaseIfAny(HistoryEvent e) {
        if (e instanceof LeaseGranted g) {
            return g.lease();
        }
        if (e instanceof LeaseRenewed r) {
            return r.lease();
        }
        if (e instanceof LeaseReleased r) {
            return r.lease();
        }
        if (e instanceof LeaseReleaseUnknown u) {
            return u.lease();
        }
        return null;
    }

    private static Instant max(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }
}
