package io.cosid.store.tck;

import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

import io.cosid.store.Namespace;
import io.cosid.store.Store;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * What every contract class shares: a fresh fixture per test, a store opened on it, and helpers for
 * time, capabilities and "nothing was written" checks.
 */
public abstract class StoreContractSupport {

    /** The fixture of the running test. */
    protected StoreFixture fixture;

    /** A store opened on the fixture for the running test. */
    protected Store store;

    /** Creates the subclass. */
    protected StoreContractSupport() {}

    /**
     * Creates the backend's fixture for one test: an empty backend.
     *
     * @return a new fixture
     */
    protected abstract StoreFixture createFixture();

    /** Opens the fixture and a store before each test. */
    @BeforeEach
    protected void openFixture() {
        fixture = createFixture();
        store = fixture.openStore();
    }

    /** Closes the fixture, and with it every store it opened, after each test. */
    @AfterEach
    protected void closeFixture() {
        if (fixture != null) {
            fixture.close();
        }
    }

    /**
     * Opens another store instance on the same backend, as another process would.
     *
     * @return the store, closed with the fixture
     */
    protected Store anotherStore() {
        return fixture.openStore();
    }

    /**
     * The manual clock, or a visible skip of the test when the backend runs on real time.
     *
     * @return the store's manual clock
     */
    protected ManualClock manualClock() {
        assumeThat(fixture.manualClock())
                .as("this backend's store clock cannot be set by tests")
                .isPresent();
        return fixture.manualClock().orElseThrow();
    }

    /**
     * Tampering, or a visible skip of the test when the backend does not offer it.
     *
     * @return the tampering capability
     */
    protected Tampering tampering() {
        assumeThat(fixture.tampering())
                .as("this backend does not let tests tamper with stored data")
                .isPresent();
        return fixture.tampering().orElseThrow();
    }

    /**
     * Lets at least {@code duration} pass on the store's clock: moves a manual clock, or waits on a
     * real one until the store's own clock shows it.
     *
     * @param duration how much store time must pass
     */
    protected void passStoreTime(Duration duration) {
        if (fixture.manualClock().isPresent()) {
            fixture.manualClock().get().advance(duration);
            return;
        }
        Instant target = fixture.storeNow().plus(duration);
        await("store clock to reach " + target)
                .pollInterval(Duration.ofMillis(20))
                .atMost(duration.plusSeconds(10))
                .until(() -> !fixture.storeNow().isBefore(target));
    }

    /**
     * The ttl for tests in which a lease must expire: short on real time, arbitrary on a manual
     * clock.
     *
     * @return the ttl
     */
    protected Duration expiringTtl() {
        return fixture.manualClock().isPresent() ? Duration.ofSeconds(10) : fixture.shortTtl();
    }

    /**
     * Everything the API can observe, plus the raw snapshot where tampering is available: equal
     * before and after an operation exactly when it wrote nothing.
     *
     * @return a comparable value
     */
    protected Object observableState() {
        Map<String, Object> state = new TreeMap<>();
        state.put("ranges", store.ranges().list());
        List<Object> namespaces = new ArrayList<>();
        for (Namespace ns : store.slots().namespaces()) {
            namespaces.add(ns);
            namespaces.add(store.slots().inspect(ns.name()).slots());
        }
        state.put("namespaces", namespaces);
        fixture.tampering().ifPresent(t -> state.put("raw", t.snapshot()));
        return state;
    }
}
