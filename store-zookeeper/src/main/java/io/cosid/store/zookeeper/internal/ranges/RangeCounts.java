package io.cosid.store.zookeeper.internal.ranges;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;

/**
 * What this store's range acquires did on contended keys, counted so that the benchmarks can say
 * where requests and waits go (docs/performance.md); nothing reads them at run time.
 */
@Singleton
public final class RangeCounts {

    /** One thing counted. */
    enum Count {
        /** Ranges this store's own write landed. */
        LANDED,
        /** Ranges another store's write served this store's seat with. */
        SERVED,
        /** Seats posted. */
        POSTS,
        /** Waits of a seated writer before it reads whether a write served it. */
        WAITS,
        /** Read multis of the key and its line. */
        READS,
        /** Writes that failed on the key: another write landed first. */
        FAILED_ON_KEY,
        /** Writes that failed on the line's check: seats posted since the read. */
        FAILED_ON_LINE,
        /** Writes that failed on a seat or result that went. */
        FAILED_ON_SEAT,
        /** Landed writes that served at least one seat. */
        SERVING_WRITES,
        /** Seats those writes served. */
        SEATS_SERVED
    }

    private final Map<Count, LongAdder> counts = new EnumMap<>(Count.class);

    @Inject
    RangeCounts() {
        for (Count c : Count.values()) {
            counts.put(c, new LongAdder());
        }
    }

    void add(Count count) {
        Objects.requireNonNull(counts.get(count)).increment();
    }

    void add(Count count, long n) {
        Objects.requireNonNull(counts.get(count)).add(n);
    }

    /** Every count now, by name. */
    public Map<String, Long> snapshot() {
        Map<String, Long> now = new LinkedHashMap<>();
        counts.forEach((c, n) -> now.put(c.name(), n.sum()));
        return now;
    }
}
