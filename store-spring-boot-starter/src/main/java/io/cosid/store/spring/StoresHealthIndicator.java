package io.cosid.store.spring;

import io.cosid.store.Store;
import io.cosid.store.StoreException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;

/**
 * Health of every store bean: UP when each answers a read within its timeout and holds no lease
 * past its validity; DOWN otherwise, with per store its type, whether it answered (and the error
 * when not), the leases it holds and how many of them are overdue.
 */
final class StoresHealthIndicator extends AbstractHealthIndicator {

    /** The range key the probe reads (a read of an unused key: one round trip, nothing written). */
    static final String PROBE_KEY = "cosid-store-health-probe";

    private final Map<String, Store> stores;
    private final LeaseWatch leases;

    StoresHealthIndicator(Map<String, Store> stores, LeaseWatch leases) {
        super("cosid-store health check failed");
        this.stores = stores;
        this.leases = leases;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        boolean up = true;
        for (Store store : stores.values()) {
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("type", store.type());
            try {
                store.ranges().peek(PROBE_KEY);
                details.put("reachable", true);
            } catch (StoreException | IllegalStateException e) {
                details.put("reachable", false);
                details.put("error", e.getMessage());
                up = false;
            }
            LeaseWatch.Leases held = leases.of(store.name());
            details.put("leasesHeld", held.held());
            details.put("leasesOverdue", held.overdue());
            if (held.overdue() > 0) {
                up = false;
            }
            builder.withDetail(store.name(), details);
        }
        if (up) {
            builder.up();
        } else {
            builder.down();
        }
    }
}
