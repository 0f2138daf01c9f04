package io.cosid.store.zookeeper.internal;

import io.cosid.store.Store;
import io.cosid.store.spi.ObservedStore;
import io.cosid.store.zookeeper.internal.ranges.RangeCounts;
import io.cosid.store.zookeeper.internal.ranges.RangeWaste;
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
        RangeWaste waste = unwrap(store).rangeWaste();
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
        return unwrap(store).rangeCounts().snapshot();
    }

    private static ZooKeeperStore unwrap(Store store) {
        return (ZooKeeperStore) ObservedStore.unwrap(store);
    }
}
