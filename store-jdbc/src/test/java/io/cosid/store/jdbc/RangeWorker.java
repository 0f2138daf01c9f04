package io.cosid.store.jdbc;

import io.cosid.store.Range;
import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.Stores;
import java.time.Duration;

/**
 * A process of its own that opens a JDBC store through {@link Stores#open} and acquires ranges of
 * one key, printing each as {@code start end}: {@code RangeWorker <url> <prefix> <key> <count>}.
 */
public final class RangeWorker {

    private RangeWorker() {}

    /**
     * Runs the worker.
     *
     * @param args the URL, the table prefix, the key and how many ranges
     */
    public static void main(String[] args) {
        StoreConfig config =
                StoreConfig.of("worker", JdbcStoreProvider.TYPE)
                        .withTimeout(Duration.ofMinutes(1))
                        .withOption("url", args[0])
                        .withOption("tablePrefix", args[1]);
        StringBuilder out = new StringBuilder();
        try (Store store = Stores.open(config)) {
            for (int i = 0; i < Integer.parseInt(args[3]); i++) {
                Range r = store.ranges().acquire(args[2], 7);
                out.append(r.start()).append(' ').append(r.end()).append('\n');
            }
        }
        System.out.print(out);
    }
}
