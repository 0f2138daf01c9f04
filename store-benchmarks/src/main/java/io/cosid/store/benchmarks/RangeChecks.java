package io.cosid.store.benchmarks;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Collects every range a run handed out and proves that none overlaps another: never a duplicate.
 */
final class RangeChecks {

    private final List<long[]> ranges = new ArrayList<>();

    synchronized void addAll(List<long[]> taken) {
        ranges.addAll(taken);
    }

    /** Throws when two ranges overlap; returns how many were checked. */
    synchronized int requireDisjoint(String what) {
        ranges.sort(Comparator.comparingLong(r -> r[0]));
        for (int i = 1; i < ranges.size(); i++) {
            long[] prev = ranges.get(i - 1);
            long[] cur = ranges.get(i);
            if (cur[0] < prev[1]) {
                throw new IllegalStateException(
                        what
                                + ": DUPLICATE values: ["
                                + prev[0]
                                + ", "
                                + prev[1]
                                + ") and ["
                                + cur[0]
                                + ", "
                                + cur[1]
                                + ") overlap");
            }
        }
        return ranges.size();
    }
}
