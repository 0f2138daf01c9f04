package io.cosid.store.benchmarks;

import java.util.List;

/**
 * How evenly the clients of one run shared the successes: per client, the successes in each whole
 * window of {@value #WINDOW_SECONDS} s, and the smallest share of the mean any client got in any
 * window (1.0: all equal; the fairness target is at least a third).
 */
final class Shares {

    static final int WINDOW_SECONDS = 2;

    private static final long WINDOW_NANOS = WINDOW_SECONDS * 1_000_000_000L;

    private final long[][] perWindow;

    /**
     * @param successTimes per client, the times of its successes (System.nanoTime)
     * @param startNanos when the run started
     * @param runNanos how long it ran: only whole windows count
     */
    Shares(List<long[]> successTimes, long startNanos, long runNanos) {
        int windows = (int) (runNanos / WINDOW_NANOS);
        perWindow = new long[successTimes.size()][windows];
        for (int c = 0; c < successTimes.size(); c++) {
            for (long at : successTimes.get(c)) {
                long w = (at - startNanos) / WINDOW_NANOS;
                if (w >= 0 && w < windows) {
                    perWindow[c][(int) w]++;
                }
            }
        }
    }

    /** Whether the run held at least one whole window. */
    boolean measured() {
        return perWindow.length > 0 && perWindow[0].length > 0;
    }

    /**
     * The smallest share of the window's mean that any client got in any whole window; NaN when
     * there was no whole window.
     */
    double minShareOfMean() {
        if (!measured()) {
            return Double.NaN;
        }
        double min = Double.POSITIVE_INFINITY;
        for (int w = 0; w < perWindow[0].length; w++) {
            long total = 0;
            for (long[] client : perWindow) {
                total += client[w];
            }
            double mean = total / (double) perWindow.length;
            for (long[] client : perWindow) {
                min = Math.min(min, mean == 0 ? 0 : client[w] / mean);
            }
        }
        return min;
    }

    /**
     * The share of all successes that the clients {@code from} (inclusive) to {@code to}
     * (exclusive) got, over the whole windows.
     */
    double shareOf(int from, int to) {
        long part = 0;
        long total = 0;
        for (int c = 0; c < perWindow.length; c++) {
            for (long n : perWindow[c]) {
                total += n;
                if (c >= from && c < to) {
                    part += n;
                }
            }
        }
        return total == 0 ? Double.NaN : part / (double) total;
    }
}
