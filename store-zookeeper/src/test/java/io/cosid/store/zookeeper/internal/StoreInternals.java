package io.cosid.store.zookeeper.internal;

import io.cosid.store.Store;
import io.cosid.store.spi.ObservedStore;

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
        RangeWaste waste =
                ((ZooKeeperRangeStore) ((ZooKeeperStore) ObservedStore.unwrap(store)).ranges())
                        .waste();
        return new long[] {
            waste.unknownOutcomeValues(), waste.givenUpValues(), waste.inFlightValues()
        };
    }
}
