package io.cosid.store.benchmarks;

import java.util.Arrays;
import java.util.function.LongConsumer;

/** Per-operation latencies of one measured run, and what the table shows of them. */
final class Latencies {

    private long[] nanos = new long[1024];
    private int count;
    private long elapsedNanos;

    void add(long operationNanos) {
        if (count == nanos.length) {
            nanos = Arrays.copyOf(nanos, count * 2);
        }
        nanos[count++] = operationNanos;
    }

    long elapsedNanos() {
        return elapsedNanos;
    }

    void elapsed(long runNanos) {
        this.elapsedNanos = runNanos;
    }

    void forEach(LongConsumer each) {
        for (int i = 0; i < count; i++) {
            each.accept(nanos[i]);
        }
    }

    int count() {
        return count;
    }

    /** The longest operation, in microseconds (0 when there was none). */
    double maxMicros() {
        long max = 0;
        for (int i = 0; i < count(); i++) {
            max = Math.max(max, nanos[i]);
        }
        return max / 1e3;
    }

    double medianMicros() {
        return percentileMicros(50);
    }

    double p99Micros() {
        return percentileMicros(99);
    }

    /** Operations per second over the whole run, waits included. */
    double throughput() {
        return elapsedNanos == 0 ? 0 : count * 1e9 / elapsedNanos;
    }

    private double percentileMicros(double percentile) {
        if (count == 0) {
            return Double.NaN;
        }
        long[] sorted = Arrays.copyOf(nanos, count);
        Arrays.sort(sorted);
        int index = (int) Math.min(count - 1, Math.ceil(percentile / 100.0 * count) - 1);
        return sorted[Math.max(index, 0)] / 1000.0;
    }
}
