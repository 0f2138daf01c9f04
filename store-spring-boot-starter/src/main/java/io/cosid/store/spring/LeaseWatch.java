package io.cosid.store.spring;

import io.cosid.store.StoreObserver;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The leases this process holds, per store, with when each stops being valid, as the stores report
 * them: the health indicator's view of "leases of this process healthy" (a lease still held past
 * its validity was not renewed in time, and its holder should have stopped using it).
 */
final class LeaseWatch implements StoreObserver {

    /** Per store, per term (namespace/slot/fence): valid until (System.nanoTime). */
    private final Map<String, Map<String, Long>> held = new ConcurrentHashMap<>();

    /** What one store's leases look like now. */
    record Leases(int held, int overdue) {}

    @Override
    public void lease(LeaseEvent e) {
        Map<String, Long> terms = held.computeIfAbsent(e.store(), s -> new ConcurrentHashMap<>());
        String term = e.lease().namespace() + "/" + e.lease().slot() + "/" + e.lease().fence();
        switch (e.kind()) {
            case ACQUIRED, RENEWED -> terms.put(term, System.nanoTime() + e.validFor().toNanos());
            case RELEASED, LOST -> terms.remove(term);
        }
    }

    /** The leases store {@code store} holds: how many, and how many are past their validity. */
    Leases of(String store) {
        Map<String, Long> terms = held.getOrDefault(store, Map.of());
        long now = System.nanoTime();
        int overdue = 0;
        for (long until : terms.values()) {
            if (until - now <= 0) {
                overdue++;
            }
        }
        return new Leases(terms.size(), overdue);
    }
}
