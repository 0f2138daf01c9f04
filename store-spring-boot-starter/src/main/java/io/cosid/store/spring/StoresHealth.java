package io.cosid.store.spring;

import io.cosid.store.Store;
import io.cosid.store.StoreException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The health of every store bean, for the health indicator of whichever Spring Boot runs (3: {@link
 * StoresHealthIndicator}, 4: {@link BootFourStoresHealthIndicator}): up when each answers a read
 * within its timeout and holds no lease past its validity; per store its type, whether it answered
 * (and the error when not), the leases it holds and how many are overdue.
 */
final class StoresHealth {

    /** The range key the probe reads (a read of an unused key: one round trip, nothing written). */
    static final String PROBE_KEY = "cosid-store-health-probe";

    /** The outcome: up or not, and the details by store name. */
    record Check(boolean up, Map<String, Object> details) {}

    private final Map<String, Store> stores;
    private final LeaseWatch leases;

    StoresHealth(Map<String, Store> stores, LeaseWatch leases) {
        this.stores = stores;
        this.leases = leases;
    }

    Check check() {
        boolean up = true;
        Map<String, Object> all = new LinkedHashMap<>();
        for (Store store : stores.values()) {
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
            LeaseWatch.Leases held = leases.of(store.name());
            details.put("leasesHeld", held.held());
            details.put("leasesOverdue", held.overdue());
            if (held.overdue() > 0) {
                up = false;
            }
            all.put(store.name(), details);
        }
        return new Check(up, all);
    }
}
