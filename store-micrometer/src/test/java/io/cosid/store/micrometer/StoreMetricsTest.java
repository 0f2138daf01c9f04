package io.cosid.store.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cosid.store.HeldLeases;
import io.cosid.store.RangeSealedException;
import io.cosid.store.SlotLease;
import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.StoreObserver;
import io.cosid.store.StoreObserver.ConnectionEvent;
import io.cosid.store.StoreObserver.FailedWriteEvent;
import io.cosid.store.StoreObserver.Operation;
import io.cosid.store.inmemory.InMemoryBackend;
import io.cosid.store.inmemory.InMemoryStores;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.core.tck.MeterRegistryAssert;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** The meters of {@link StoreMetrics}, on real in-memory stores. */
@DisplayName("StoreMetrics")
class StoreMetricsTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final StoreMetrics metrics = new StoreMetrics(registry);
    private final InMemoryBackend backend = InMemoryStores.backend();

    private Store open(String name) {
        return backend.open(StoreConfig.of(name, "in-memory").withObserver(metrics));
    }

    @Nested
    @DisplayName("operations")
    class Operations {

        @Test
        @DisplayName("are timed by store, type, operation and outcome")
        void timed() {
            try (Store store = open("main")) {
                for (int i = 0; i < 3; i++) {
                    store.ranges().acquire("orders", 10);
                }
                store.ranges().seal("orders");
                assertThatThrownBy(() -> store.ranges().acquire("orders", 10))
                        .isInstanceOf(RangeSealedException.class);
            }
            MeterRegistryAssert.assertThat(registry)
                    .hasTimerWithNameAndTags(
                            StoreMetrics.OPERATIONS,
                            Tags.of(
                                    "store",
                                    "main",
                                    "type",
                                    "in-memory",
                                    "operation",
                                    "range.acquire",
                                    "outcome",
                                    "success"));
            assertThat(
                            registry.get(StoreMetrics.OPERATIONS)
                                    .tags("operation", "range.acquire", "outcome", "success")
                                    .timer()
                                    .count())
                    .isEqualTo(3);
            assertThat(
                            registry.get(StoreMetrics.OPERATIONS)
                                    .tags("operation", "range.acquire", "outcome", "sealed")
                                    .timer()
                                    .count())
                    .isEqualTo(1);
            assertThat(
                            registry.get(StoreMetrics.OPERATIONS)
                                    .tags("operation", "range.seal", "outcome", "success")
                                    .timer()
                                    .count())
                    .isEqualTo(1);
        }

        @Test
        @DisplayName("of two stores are told apart by the store tag")
        void twoStores() {
            try (Store a = open("a");
                    Store b = open("b")) {
                a.ranges().acquire("orders", 10);
                b.ranges().acquire("orders", 10);
                b.ranges().acquire("orders", 10);
            }
            assertThat(registry.get(StoreMetrics.OPERATIONS).tag("store", "a").timer().count())
                    .isEqualTo(1);
            assertThat(registry.get(StoreMetrics.OPERATIONS).tag("store", "b").timer().count())
                    .isEqualTo(2);
        }
    }

    @Nested
    @DisplayName("gauges")
    class Gauges {

        @Test
        @DisplayName("count open stores")
        void openStores() {
            Store store = open("main");
            assertThat(registry.get(StoreMetrics.OPEN).tag("store", "main").gauge().value())
                    .isEqualTo(1);
            store.close();
            store.close();
            assertThat(registry.get(StoreMetrics.OPEN).tag("store", "main").gauge().value())
                    .isZero();
        }

        @Test
        @DisplayName(
                "count the leases held and the seconds to the nearest end of validity, from memory")
        void leases() {
            try (Store store = open("main")) {
                store.slots().define("workers", 4, Duration.ofMillis(100));
                assertThat(registry.get(StoreMetrics.HELD).gauge().value()).isZero();
                assertThat(registry.get(StoreMetrics.NEAREST_EXPIRY).gauge().value()).isNaN();

                SlotLease a = store.slots().acquire("workers", "host-1", Duration.ofMinutes(10));
                SlotLease b = store.slots().acquire("workers", "host-2", Duration.ofMinutes(1));
                assertThat(registry.get(StoreMetrics.HELD).gauge().value()).isEqualTo(2);
                assertThat(registry.get(StoreMetrics.NEAREST_EXPIRY).gauge().value())
                        .isGreaterThan(0)
                        .isLessThanOrEqualTo(60);

                store.slots().release(b);
                assertThat(registry.get(StoreMetrics.HELD).gauge().value()).isEqualTo(1);
                assertThat(registry.get(StoreMetrics.NEAREST_EXPIRY).gauge().value())
                        .isGreaterThan(60)
                        .isLessThanOrEqualTo(600);

                store.slots().release(store.slots().renew(a));
                assertThat(registry.get(StoreMetrics.HELD).gauge().value()).isZero();
            }
        }
    }

    @Test
    @DisplayName("lease events are counted, and each renewal's margin is timed")
    void leaseEvents() {
        try (Store store = open("main")) {
            store.slots().define("workers", 4, Duration.ofMillis(100));
            SlotLease lease = store.slots().acquire("workers", "host-1", Duration.ofMinutes(10));
            SlotLease renewed = store.slots().renew(store.slots().renew(lease));
            store.slots().release(renewed);
        }
        assertThat(registry.get(StoreMetrics.LEASES).tag("event", "acquired").counter().count())
                .isEqualTo(1);
        assertThat(registry.get(StoreMetrics.LEASES).tag("event", "renewed").counter().count())
                .isEqualTo(2);
        assertThat(registry.get(StoreMetrics.LEASES).tag("event", "released").counter().count())
                .isEqualTo(1);
        assertThat(registry.get(StoreMetrics.RENEWAL_MARGIN).timer().count()).isEqualTo(2);
        assertThat(registry.get(StoreMetrics.RENEWAL_MARGIN).timer().max(TimeUnit.SECONDS))
                .isGreaterThan(0)
                .isLessThanOrEqualTo(600);
    }

    @Test
    @DisplayName("failed writes and connection states are counted by reason and state")
    void backendEvents() {
        metrics.failedWrite(
                new FailedWriteEvent(
                        "zk",
                        "zookeeper",
                        Operation.RANGE_ACQUIRE,
                        FailedWriteEvent.Reason.LOST_RACE));
        metrics.failedWrite(
                new FailedWriteEvent(
                        "zk",
                        "zookeeper",
                        Operation.RANGE_ACQUIRE,
                        FailedWriteEvent.Reason.LOST_RACE));
        metrics.failedWrite(
                new FailedWriteEvent(
                        "zk",
                        "zookeeper",
                        Operation.SLOT_ACQUIRE,
                        FailedWriteEvent.Reason.OUTCOME_UNKNOWN));
        metrics.connection(
                new ConnectionEvent("zk", "zookeeper", ConnectionEvent.State.SUSPENDED, false));
        metrics.connection(
                new ConnectionEvent("zk", "zookeeper", ConnectionEvent.State.RECONNECTED, true));

        assertThat(
                        registry.get(StoreMetrics.FAILED_WRITES)
                                .tags("operation", "range.acquire", "reason", "lost.race")
                                .counter()
                                .count())
                .isEqualTo(2);
        assertThat(
                        registry.get(StoreMetrics.FAILED_WRITES)
                                .tags("operation", "slot.acquire", "reason", "outcome.unknown")
                                .counter()
                                .count())
                .isEqualTo(1);
        assertThat(
                        registry.get(StoreMetrics.CONNECTION_STATES)
                                .tags("state", "reconnected", "session", "new")
                                .counter()
                                .count())
                .isEqualTo(1);
    }

    @Test
    @DisplayName(
            "no tag ever carries a range key, namespace or owner key: 200 of each make no more"
                    + " meters than one")
    void lowCardinality() {
        Set<String> names = new HashSet<>();
        try (Store store = open("main")) {
            for (int i = 0; i < 200; i++) {
                String key = "key-" + i;
                String namespace = "ns-" + i;
                String owner = "owner-" + i;
                names.addAll(List.of(key, namespace, owner));
                store.ranges().acquire(key, 10);
                store.slots().define(namespace, 2, Duration.ofMillis(100));
                store.slots()
                        .release(store.slots().acquire(namespace, owner, Duration.ofMinutes(1)));
            }
        }
        List<Meter> meters = registry.getMeters();
        assertThat(meters)
                .allSatisfy(
                        m -> {
                            assertThat(m.getId().getTags())
                                    .extracting(Tag::getKey)
                                    .isSubsetOf(
                                            "store",
                                            "type",
                                            "operation",
                                            "outcome",
                                            "reason",
                                            "state",
                                            "session",
                                            "event");
                            assertThat(m.getId().getTags())
                                    .extracting(Tag::getValue)
                                    .doesNotContainAnyElementsOf(names);
                        });
        // range.acquire, namespace.define, slot.acquire, slot.release timers; acquired and
        // released counters; three gauges
        assertThat(meters).hasSize(9);
    }

    @Test
    @DisplayName(
            "the lease gauges can read a tracker shared with a health check, which the caller"
                    + " feeds")
    void sharedTracker() {
        HeldLeases leases = new HeldLeases();
        SimpleMeterRegistry shared = new SimpleMeterRegistry();
        StoreMetrics withShared = new StoreMetrics(shared, leases);
        try (Store store =
                backend.open(
                        StoreConfig.of("shared", "in-memory")
                                .withObserver(StoreObserver.all(List.of(leases, withShared))))) {
            store.slots().define("workers", 2, Duration.ofMillis(100));
            SlotLease lease = store.slots().acquire("workers", "host-1", Duration.ofMinutes(1));
            assertThat(leases.of("shared").valid()).isOne();
            assertThat(shared.get(StoreMetrics.HELD).tag("store", "shared").gauge().value())
                    .isEqualTo(1);
            store.slots().release(lease);
            assertThat(shared.get(StoreMetrics.HELD).tag("store", "shared").gauge().value())
                    .isZero();
        }
    }

    @Test
    @DisplayName("a missing registry is refused, naming it")
    void registryRequired() {
        assertThatThrownBy(() -> new StoreMetrics(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("registry");
    }
}
