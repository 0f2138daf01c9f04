package io.cosid.store.benchmarks;

import java.util.Map;

/** Lookups of keys a harness put in a map itself: a missing one is a bug in the harness. */
final class Maps {

    private Maps() {}

    static <K, V> V at(Map<K, V> map, K key) {
        V value = map.get(key);
        if (value == null) {
            throw new IllegalStateException("the harness recorded nothing for " + key);
        }
        return value;
    }
}
