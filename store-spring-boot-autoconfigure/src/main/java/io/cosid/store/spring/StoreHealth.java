package io.cosid.store.spring;

import io.cosid.store.HeldLeases;
import io.cosid.store.Store;
import io.cosid.store.StoreException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One store's health, for the indicator of whichever Spring Boot runs ({@link StoreHealthIndicator}
 * on 3, {@link BootFourStoreHealthIndicator} on 4): up when it answers a read within its timeout
 * and holds no lease past its validity; its type, whether it answered (and the error when not), the
 * leases it holds and how many are overdue.
 */
final class StoreHealth {

    /** The stores' health contributor's name: {@code management.health.cosid-store.enabled}. */
    static final String NAME = "cosid-store";

    /** The range key the probe reads (a read of an unused key: one round trip, nothing written). */
    static final String PROBE_KEY = "cosid-store-health-probe";

    /** The outcome: up or not, and the details. */
    record Check(boolean up, Map<String, Object> details) {}

    private final Store store;
    private final HeldLeases leases;

    StoreHealth(Store store, HeldLeases leases) {
        this.store = store;
        this.leases = leases;
    }

    Check check() {
        boolean up = true;
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("type", store.type());
        try {
            store.ranges().peek(PROBE_KEY);
            details.put("reachable", true);
        } catch (StoreException | IllegalStateException e) {
            details.put("reachable", false);
            details.put("error", String.valueOf(e.getMessage()));
            up = false;
        }
        HeldLeases.Held held = leases.of(store.name());
        details.put("leasesHeld", held.valid() + held.overdue());
        details.put("leasesOverdue", held.overdue());
        if (held.overdue() > 0) {
            up = false;
        }
        return new Check(up, details);
    }
}
