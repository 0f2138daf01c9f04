package io.cosid.store.zookeeper.internal;

import io.cosid.store.Store;
import io.cosid.store.spi.ObservedStore;
import io.cosid.store.zookeeper.internal.ranges.RangeCounts;
import io.cosid.store.zookeeper.internal.ranges.RangeWaste;
import io.cosid.store.zookeeper.internal.ranges.ZooKeeperRangeStore;
import java.util.Map;

/** What tests outside this package may read of a ZooKeeper store's internals. */
public final class StoreInternals {

    private StoreInternals() {}

    /**
     * The values a store's range writes may have skipped, by cause ({@link RangeWaste}).
     *
     * @param store a store opened by {@code ZooKeeperStores}
     * @return {values of writes of unknown outcome (an upper bound), values given up by callers,
     *     values of the range writes in flight now}
     */
    public static long[] rangeWaste(Store store) {
        RangeWaste waste = ranges(store).shared().waste();
        return new long[] {
            waste.unknownOutcomeValues(), waste.givenUpValues(), waste.inFlightValues()
        };
    }

    /**
     * What a store's range acquires did on contended keys ({@link RangeCounts}), by count name.
     *
     * @param store a store opened by {@code ZooKeeperStores}
     * @return every count, in {@link RangeCounts.Count} order
     */
    public static Map<String, Long> rangeCounts(Store store) {
        return ranges(store).shared().counts().snapshot();
    }

    private static ZooKeeperRangeStore ranges(Store store) {
        return (ZooKeeperRangeStore) ((ZooKeeperStore) ObservedStore.unwrap(store)).ranges();
    }
}
