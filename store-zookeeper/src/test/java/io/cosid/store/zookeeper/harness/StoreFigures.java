package io.cosid.store.zookeeper.harness;

import io.cosid.store.Store;
import io.cosid.store.zookeeper.internal.StoreInternals;
import java.util.Map;

/**
 * What the benchmarks read of a ZooKeeper store beyond its API (the backend's internal package
 * stays its own; this test harness class is the door).
 */
public final class StoreFigures {

    private StoreFigures() {}

    /**
     * What a store's range acquires did on contended keys: ranges landed and served, seats posted,
     * reads, failed writes by cause, waits, seats served per serving write.
     *
     * @param store a store opened by {@code ZooKeeperStores}
     * @return every count, by name
     */
    public static Map<String, Long> rangeCounts(Store store) {
        return StoreInternals.rangeCounts(store);
    }
}
