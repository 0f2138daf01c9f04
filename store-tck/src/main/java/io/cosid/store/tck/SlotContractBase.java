package io.cosid.store.tck;

import io.cosid.store.Namespace;
import io.cosid.store.SlotLease;
import io.cosid.store.SlotLeaseStore;
import java.time.Duration;

/**
 * What every part of the SlotLeaseStore contract shares: the namespace its tests use and the calls
 * they repeat. The parts ({@link SlotTermsPart}, {@link SlotRacesPart}) are superclasses of {@link
 * SlotLeaseStoreContract}, so that their groups run as its own, on its fixture.
 */
abstract class SlotContractBase extends StoreContractSupport {

    /** A ttl no test outlives, for leases that must not expire during a test. */
    static final Duration LONG_TTL = Duration.ofMinutes(10);

    static final Duration TOLERANCE = Duration.ofSeconds(2);
    static final String NS = "workers";

    SlotLeaseStore slots() {
        return store.slots();
    }

    Namespace define(int limit) {
        return slots().define(NS, limit, TOLERANCE);
    }

    SlotLease acquire(String owner) {
        return slots().acquire(NS, owner, LONG_TTL);
    }
}
