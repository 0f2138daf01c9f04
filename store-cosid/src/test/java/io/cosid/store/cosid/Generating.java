package io.cosid.store.cosid;

import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.Stores;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.LongSupplier;

/** The stores a test opened and the threads that generate IDs on them; closes both. */
final class Generating implements AutoCloseable {

    private final List<Store> stores = new ArrayList<>();
    private final ExecutorService pool = Executors.newCachedThreadPool();

    /** Keeps {@code store} to close it after the test. */
    Store keep(Store store) {
        stores.add(store);
        return store;
    }

    /**
     * Opens a ZooKeeper store of its own session under {@code root}, kept to close after the test:
     * one process of a fleet.
     */
    Store zooKeeper(String connectString, String root, String name) {
        return keep(
                Stores.open(
                        StoreConfig.of(name, "zookeeper")
                                .withTimeout(Duration.ofSeconds(10))
                                .withOption("connectString", connectString)
                                .withOption("root", root)));
    }

    /** A task that takes {@code count} IDs from {@code ids}. */
    static Callable<long[]> take(int count, LongSupplier ids) {
        return () -> {
            long[] got = new long[count];
            for (int i = 0; i < got.length; i++) {
                got[i] = ids.getAsLong();
            }
            return got;
        };
    }

    /** Runs the tasks in parallel and returns everything they returned, sorted. */
    long[] all(List<Callable<long[]>> tasks) throws Exception {
        List<Future<long[]>> futures = new ArrayList<>();
        for (Callable<long[]> task : tasks) {
            futures.add(pool.submit(task));
        }
        List<long[]> parts = new ArrayList<>();
        for (Future<long[]> f : futures) {
            parts.add(f.get());
        }
        long[] all = parts.stream().flatMapToLong(Arrays::stream).toArray();
        Arrays.sort(all);
        return all;
    }

    /** Fails naming the first ID that a sorted array holds twice. */
    static void assertNoneTwice(long[] sorted) {
        for (int i = 1; i < sorted.length; i++) {
            if (sorted[i] == sorted[i - 1]) {
                throw new AssertionError("ID " + sorted[i] + " was generated twice");
            }
        }
    }

    @Override
    public void close() {
        pool.shutdownNow();
        stores.forEach(Store::close);
    }
}
