package io.cosid.store.micrometer;

import io.cosid.store.HeldLeases;
import io.cosid.store.StoreObserver;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Micrometer meters for every store that reports to it, registered in its registry as events arrive
 * (the shape of Micrometer's own listeners, e.g. {@code MongoMetricsCommandListener}):
 *
 * <pre>{@code
 * Store store = ZooKeeperStores.open(config.withObserver(new StoreMetrics(registry)));
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
 * <p>One instance can serve many stores (tags tell them apart); a {@code CompositeMeterRegistry}
 * publishes to several registries. The lease gauges read a {@link HeldLeases}: its own, or one
 * shared with a health check.
 */
public final class StoreMetrics implements StoreObserver {

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

    private final MeterRegistry registry;

    /** What the lease gauges read. */
    private final HeldLeases leases;

    /** Whether the tracker is this object's own, fed by it (else the caller feeds it). */
    private final boolean feedsLeases;

    /** Per store: its gauges' state. */
    private final Map<StoreKey, StoreGauges> stores = new ConcurrentHashMap<>();

    /** Meters by everything that names them, so that an event costs one map lookup. */
    private final Map<Object, Timer> timers = new ConcurrentHashMap<>();

    private final Map<Object, Counter> counters = new ConcurrentHashMap<>();

    /**
     * Meters in {@code registry}, the lease gauges on a tracker of this object's own.
     *
     * @param registry the registry
     */
    public StoreMetrics(MeterRegistry registry) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.leases = new HeldLeases();
        this.feedsLeases = true;
    }

    /**
     * Meters in {@code registry}, the lease gauges on {@code leases}, which the caller attaches to
     * the same stores (so that a health check and the gauges read one tracker).
     *
     * @param registry the registry
     * @param leases the tracker the lease gauges read
     */
    public StoreMetrics(MeterRegistry registry, HeldLeases leases) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.leases = Objects.requireNonNull(leases, "leases");
        this.feedsLeases = false;
    }

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

    @Override
    public void opened(String store, String type) {
        gauges(store, type).open.incrementAndGet();
    }

    @Override
    public void closed(String store, String type) {
        gauges(store, type).open.decrementAndGet();
        if (feedsLeases) {
            leases.closed(store, type);
        }
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
        timer.record(e.duration());
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
        gauges(e.store(), e.type());
        if (feedsLeases) {
            leases.lease(e);
        }
        increment(
                new LeaseKey(e.store(), e.type(), e.kind()),
                LEASES,
                "leases acquired, renewed, released, lost",
                e.store(),
                e.type(),
                "event",
                e.kind().name().toLowerCase(Locale.ROOT));
        if (e.kind() == LeaseEvent.Kind.RENEWED) {
            timer(
                            new MarginKey(e.store(), e.type()),
                            RENEWAL_MARGIN,
                            "how long the old term was still valid when its renewal was sent",
                            e.store(),
                            e.type())
                    .record(e.margin());
        }
    }

    /** The timer {@code key} names, registered on first use. */
    private Timer timer(
            Object key,
            String name,
            String description,
            String store,
            String type,
            String... tags) {
        return timers.computeIfAbsent(
                key,
                k ->
                        Timer.builder(name)
                                .description(description)
                                .tags(new StoreKey(store, type).tags().and(tags))
                                .register(registry));
    }

    /** Counts one on the counter {@code key} names, registered on first use. */
    private void increment(
            Object key,
            String name,
            String description,
            String store,
            String type,
            String... tags) {
        counters.computeIfAbsent(
                        key,
                        k ->
                                Counter.builder(name)
                                        .description(description)
                                        .tags(new StoreKey(store, type).tags().and(tags))
                                        .register(registry))
                .increment();
    }

    /** Store {@code store}'s gauges, registered when it is first seen. */
    private StoreGauges gauges(String store, String type) {
        return stores.computeIfAbsent(
                new StoreKey(store, type), k -> new StoreGauges(k, leases).register(registry));
    }

    /** What one store's gauges read: its open count here, its leases in the tracker. */
    private static final class StoreGauges {
        final AtomicInteger open = new AtomicInteger();
        private final StoreKey key;
        private final HeldLeases leases;

        StoreGauges(StoreKey key, HeldLeases leases) {
            this.key = key;
            this.leases = leases;
        }

        StoreGauges register(MeterRegistry registry) {
            Gauge.builder(OPEN, open, AtomicInteger::get)
                    .description("cosid-store stores open")
                    .tags(key.tags())
                    .strongReference(true)
                    .register(registry);
            Gauge.builder(HELD, this, StoreGauges::held)
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
            return this;
        }

        double held() {
            return leases.of(key.store()).valid();
        }

        double secondsToNearestExpiry() {
            return leases.of(key.store())
                    .nearestExpiry()
                    .map(d -> d.toNanos() / (double) Duration.ofSeconds(1).toNanos())
                    .orElse(Double.NaN);
        }
    }
}
