package io.cosid.store;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The leases this process holds, per store, and when each stops being valid, as the stores' lease
 * events tell it: the one view behind a health check's "no lease held past its validity" and the
 * held-lease gauges of cosid-store-micrometer. Attach it to the stores it should watch as an
 * observer ({@link StoreConfig#withObserver}, beside others with {@link StoreObserver#all}).
 *
 * <p>A term counts from its {@link StoreObserver.LeaseEvent.Kind#ACQUIRED acquire} or {@link
 * StoreObserver.LeaseEvent.Kind#RENEWED renewal} until it is released or found lost; past its
 * {@link StoreObserver.LeaseEvent#validFor() validity} it is <em>overdue</em>: not renewed in time,
 * and its holder should have stopped using it. What a store held is forgotten when it closes. This
 * reads its own memory only, never a store.
 */
public final class HeldLeases implements StoreObserver {

    /** Per store, per term: valid until (the ticker's nanoseconds). */
    private final Map<String, Map<Term, Long>> held = new ConcurrentHashMap<>();

    private final Ticker ticker;

    /** A tracker on {@link System#nanoTime()}. */
    public HeldLeases() {
        this(Ticker.system());
    }

    /** A tracker on {@code ticker}, for tests that step time. */
    HeldLeases(Ticker ticker) {
        this.ticker = ticker;
    }

    private record Term(String namespace, int slot, long fence) {}

    /**
     * What one store's leases look like now.
     *
     * @param valid terms held and still valid
     * @param overdue terms held past their validity
     * @param nearestExpiry until the first valid term stops being valid; empty when none is valid
     */
    public record Held(int valid, int overdue, Optional<Duration> nearestExpiry) {

        /**
         * Checks the values.
         *
         * @param valid as described for the record
         * @param overdue as described for the record
         * @param nearestExpiry as described for the record
         */
        public Held {
            Objects.requireNonNull(nearestExpiry, "nearestExpiry");
        }
    }

    @Override
    public void lease(LeaseEvent e) {
        Map<Term, Long> terms = held.computeIfAbsent(e.store(), s -> new ConcurrentHashMap<>());
        Term term = new Term(e.lease().namespace(), e.lease().slot(), e.lease().fence());
        switch (e.kind()) {
            case ACQUIRED, RENEWED -> terms.put(term, ticker.nanos() + e.validFor().toNanos());
            case RELEASED, LOST -> terms.remove(term);
        }
    }

    @Override
    public void closed(String store, String type) {
        held.remove(store);
    }

    /**
     * The leases store {@code store} holds now.
     *
     * @param store the store's name
     * @return how many are valid, how many overdue, and when the first valid one stops being valid
     */
    public Held of(String store) {
        Map<Term, Long> terms = held.getOrDefault(store, Map.of());
        long now = ticker.nanos();
        int valid = 0;
        int overdue = 0;
        long nearest = Long.MAX_VALUE;
        for (long until : terms.values()) {
            long left = until - now;
            if (left > 0) {
                valid++;
                nearest = Math.min(nearest, left);
            } else {
                overdue++;
            }
        }
        return new Held(
                valid,
                overdue,
                valid == 0 ? Optional.empty() : Optional.of(Duration.ofNanos(nearest)));
    }

    @Override
    public String toString() {
        return "HeldLeases" + held.keySet();
    }
}
