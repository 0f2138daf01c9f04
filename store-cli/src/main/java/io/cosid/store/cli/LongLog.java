package io.cosid.store.cli;

import java.util.Arrays;
import java.util.List;

/**
 * Every ID an instance generated, as primitive longs, so millions fit; and the duplicate count over
 * all.
 */
final class LongLog {

    private long[] values = new long[1024];
    private int size;

    void add(long value) {
        if (size == values.length) {
            values = Arrays.copyOf(values, size * 2);
        }
        values[size++] = value;
    }

    int size() {
        return size;
    }

    /**
     * How many values appear more than once across the logs (each extra occurrence counts once).
     */
    static long duplicates(List<LongLog> logs) {
        int total = logs.stream().mapToInt(LongLog::size).sum();
        long[] all = new long[total];
        int at = 0;
        for (LongLog log : logs) {
            System.arraycopy(log.values, 0, all, at, log.size);
            at += log.size;
        }
        Arrays.sort(all);
        long duplicates = 0;
        for (int i = 1; i < all.length; i++) {
            if (all[i] == all[i - 1]) {
                duplicates++;
            }
        }
        return duplicates;
    }
}
