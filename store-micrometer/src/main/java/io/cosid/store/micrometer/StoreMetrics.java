package io.cosid.store.micrometer;

import io.cosid.store.StoreObserver;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * Micrometer meters for every store that reports to it: bind it to a registry and attach it to the
 * stores' configurations.
 *
 * <pre>{@code
 * StoreMetrics metrics = new StoreMetrics();
 * metrics.bindTo(registry);
 * Store store = ZooKeeperStores.open(config.withObserver(metrics));
 * }</pre>
 *
 * <p>Meters (names by Micrometer's conventions; tags {@code store} and {@code type} on all, plus
 * the ones listed, never a range key, namespace or owner key):
 *
 * <ul>
 *   <li>{@value #OPERATIONS} (timer): every operation; tags {@code operation} ({@code
 *       range.acquire}, {@code slot.renew}, ...) and {@code outcome} ({@code success}, {@code
 *       lease.lost}, {@code timed.out}, ...).
 *   <li>{@value #FAILED_WRITES} (counter): conditional writes that did not land; tags {@code
 *       operation} and {@code reason} ({@code lost.race}, {@code outcome.unknown}).
 *   <li>{@value #CONNECTION_STATES} (counter): connection state changes; tags {@code state} and
 *       {@code session} ({@code same} or {@code new}).
 *   <li>{@value #LEASES} (counter): lease events; tag {@code event} ({@code acquired}, {@code
 *       renewed}, {@code released}, {@code lost}).
 *   <li>{@value #RENEWAL_MARGIN} (timer): at each renewal, how long the old term was still valid.
 *   <li>{@value #OPEN} (gauge): stores open; {@value #HELD} (gauge): leases this process holds that
 *       are still valid; {@value #NEAREST_EXPIRY} (gauge, seconds): until the first of them stops
 *       being valid, NaN when none. Gauges read this object's memory, never the store.
 * </ul>
 *
 * <p>One instance can serve many stores (tags tell them apart) and is bound to one registry (a
 * {@code CompositeMeterRegistry} publishes to several); events before it is bound are not counted.
 */
public final class StoreMetrics implements MeterBinder, StoreObserver {

    /** The operations timer. */
    public static final String OPERATIONS = "cosid.store.operations";

    /** The counter of conditional writes that did not land. */
    public static final String FAILED_WRITES = "cosid.store.writes.failed";

    /** The counter of connection state changes. */
    public static final String CONNECTION_STATES = "cosid.store.connection.states";

    /** The counter of lease events. */
    public static final String LEASES = "cosid.store.leases";

    /** The timer of renewal margins. */
    public static final String RENEWAL_MARGIN = "cosid.store.lease.renewal.margin";

    /** The gauge of open stores. */
    public static final String OPEN = "cosid.store.open";

    /** The gauge of leases held and still valid. */
    public static final String HELD = "cosid.store.leases.held";

    /** The gauge of seconds until the nearest held lease stops being valid. */
    public static final String NEAREST_EXPIRY = "cosid.store.lease.nearest.expiry";

    private volatile @Nullable MeterRegistry registry;

    /** Per store: its gauges' state. */
    private final Map<StoreKey, StoreGauges> stores = new ConcurrentHashMap<>();

    /** Meters by everything that names them, so that an event costs one map lookup. */
    private final Map<Object, Timer> timers = new ConcurrentHashMap<>();

    private final Map<Object, Counter> counters = new ConcurrentHashMap<>();

    /** Creates the binder; bind it with {@link #bindTo}. */
    public StoreMetrics() {}

    private record StoreKey(String store, String type) {
        Tags tags() {
            return Tags.of("store", store, "type", type);
        }
    }

    private record OperationKey(String store, String type, Operation operation, Outcome outcome) {}

    private record FailedWriteKey(
            String store, String type, Operation operation, FailedWriteEvent.Reason reason) {}

    private record ConnectionKey(
            String store, String type, ConnectionEvent.State state, boolean newSession) {}

    private record LeaseKey(String store, String type, LeaseEvent.Kind kind) {}

    private record MarginKey(String store, String type) {}

    /**
     * Registers the gauges of the stores seen so far; meters of later events go to {@code registry}
     * too.
     *
     * @param registry the registry
     * @throws IllegalStateException if bound to another registry before
     */
    @Override
    public synchronized void bindTo(MeterRegistry registry) {
        Objects.requireNonNull(registry, "registry");
        MeterRegistry bound = this.registry;
        if (bound != null && bound != registry) {
            throw new IllegalStateException(
                    "StoreMetrics is bound to "
                            + bound
                            + " already; bind it to one CompositeMeterRegistry to publish to"
                            + " several registries");
        }
        this.registry = registry;
        stores.forEach((key, gauges) -> gauges.register(registry, key));
    }

    @Override
    public void opened(String store, String type) {
        gauges(store, type).open.incrementAndGet();
    }

    @Override
    public void closed(String store, String type) {
        gauges(store, type).open.decrementAndGet();
    }

    @Override
    public void operation(OperationEvent e) {
        Timer timer =
                timer(
                        new OperationKey(e.store(), e.type(), e.operation(), e.outcome()),
                        OPERATIONS,
                        "cosid-store operations by outcome",
                        e.store(),
                        e.type(),
                        "operation",
                        e.operation().tag(),
                        "outcome",
                        e.outcome().tag());
        if (timer != null) {
            timer.record(e.duration());
        }
    }

    @Override
    public void failedWrite(FailedWriteEvent e) {
        increment(
                new FailedWriteKey(e.store(), e.type(), e.operation(), e.reason()),
                FAILED_WRITES,
                "conditional writes that lost a race or whose outcome is unknown",
                e.store(),
                e.type(),
                "operation",
                e.operation().tag(),
                "reason",
                e.reason().tag());
    }

    @Override
    public void connection(ConnectionEvent e) {
        increment(
                new ConnectionKey(e.store(), e.type(), e.state(), e.newSession()),
                CONNECTION_STATES,
                "connection state changes of stores",
                e.store(),
                e.type(),
                "state",
                e.state().tag(),
                "session",
                e.newSession() ? "new" : "same");
    }

    @Override
    public void lease(LeaseEvent e) {
        gauges(e.store(), e.type()).lease(e);
        increment(
                new LeaseKey(e.store(), e.type(), e.kind()),
                LEASES,
                "leases acquired, renewed, released, lost",
                e.store(),
                e.type(),
                "event",
                e.kind().name().toLowerCase(Locale.ROOT));
        if (e.kind() == LeaseEvent.Kind.RENEWED) {
            Timer margin =
                    timer(
                            new MarginKey(e.store(), e.type()),
                            RENEWAL_MARGIN,
                            "how long the old term was still valid when its renewal was sent",
                            e.store(),
                            e.type());
            if (margin != null) {
                margin.record(e.margin());
            }
        }
    }

    /** The timer {@code key} names, registered on first use; null before binding. */
    private @Nullable Timer timer(
            Object key,
            String name,
            String description,
            String store,
            String type,
            String... tags) {
        MeterRegistry r = registry;
        if (r == null) {
            return null;
        }
        return timers.computeIfAbsent(
                key,
                k ->
                        Timer.builder(name)
                                .description(description)
                                .tags(new StoreKey(store, type).tags().and(tags))
                                .register(r));
    }

    /**
     * Counts one on the counter {@code key} names, registered on first use; nothing before binding.
     */
    private void increment(
            Object key,
            String name,
            String description,
            String store,
            String type,
            String... tags) {
        MeterRegistry r = registry;
        if (r == null) {
            return;
        }
        counters.computeIfAbsent(
                        key,
                        k ->
                                Counter.builder(name)
                                        .description(description)
                                        .tags(new StoreKey(store, type).tags().and(tags))
                                        .register(r))
                .increment();
    }

    private StoreGauges gauges(String store, String type) {
        StoreKey key = new StoreKey(store, type);
        StoreGauges gauges = stores.get(key);
        if (gauges != null) {
            return gauges;
        }
        synchronized (this) {
            return stores.computeIfAbsent(
                    key,
                    k -> {
                        StoreGauges created = new StoreGauges();
                        MeterRegistry r = registry;
                        if (r != null) {
                            created.register(r, k);
                        }
                        return created;
                    });
        }
    }

    /** What one store's gauges read: open count and the leases held, by when each stops. */
    private static final class StoreGauges {
        final AtomicInteger open = new AtomicInteger();

        /** Valid-until (System.nanoTime) per held term: namespace, slot, fence. */
        final Map<String, Long> held = new ConcurrentHashMap<>();

        void register(MeterRegistry registry, StoreKey key) {
            Gauge.builder(OPEN, open, AtomicInteger::get)
                    .description("cosid-store stores open")
                    .tags(key.tags())
                    .strongReference(true)
                    .register(registry);
            Gauge.builder(HELD, this, StoreGauges::heldNow)
                    .description("leases this process holds that are still valid")
                    .tags(key.tags())
                    .strongReference(true)
                    .register(registry);
            Gauge.builder(NEAREST_EXPIRY, this, StoreGauges::secondsToNearestExpiry)
                    .description(
                            "seconds until the first lease this process holds stops being valid")
                    .baseUnit("seconds")
                    .tags(key.tags())
                    .strongReference(true)
                    .register(registry);
        }

        void lease(LeaseEvent e) {
            String term = e.lease().namespace() + "/" + e.lease().slot() + "/" + e.lease().fence();
            switch (e.kind()) {
                case ACQUIRED, RENEWED ->
                        held.put(term, System.nanoTime() + e.validFor().toNanos());
                case RELEASED, LOST -> held.remove(term);
            }
        }

        double heldNow() {
            long now = System.nanoTime();
            held.values().removeIf(until -> until - now <= 0);
            return held.size();
        }

        double secondsToNearestExpiry() {
            long now = System.nanoTime();
            long nearest = Long.MAX_VALUE;
            for (long until : held.values()) {
                nearest = Math.min(nearest, until - now);
            }
            return nearest == Long.MAX_VALUE
                    ? Double.NaN
                    : Math.max(0, nearest) / (double) Duration.ofSeconds(1).toNanos();
        }
    }
}
