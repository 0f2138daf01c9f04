package io.cosid.store.cosid;

import io.cosid.store.Store;
import io.cosid.store.inmemory.InMemoryBackend;
import io.cosid.store.tck.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One in-memory backend and the clocks of a test, set by hand: the store's wall clock, each
 * instance's wall clock (the store's, shifted), and one monotonic clock. Waiting for a floor moves
 * all of them, as real time would.
 */
final class MachineRig implements AutoCloseable {

    static final Instant START = Instant.parse("2026-12-05T12:00:00Z");

    final ManualClock clock = new ManualClock(START);
    final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    final InMemoryBackend backend = InMemoryBackend.create(clock);
    final List<Duration> waits = new ArrayList<>();
    private final List<Store> stores = new ArrayList<>();

    /** Real time passing: every clock moves forward. */
    void pass(Duration duration) {
        clock.advance(duration);
        nanos.addAndGet(duration.toNanos());
    }

    /** A new process: its own store on the shared backend and a distributor on it. */
    StoreMachineIdDistributor process(Duration tolerance) {
        return process(tolerance, Duration.ZERO);
    }

    /** A new process whose wall clock runs {@code behind} the store's. */
    StoreMachineIdDistributor process(Duration tolerance, Duration behind) {
        Store store = backend.open();
        stores.add(store);
        InstantSource own = () -> clock.instant().minus(behind);
        return new StoreMachineIdDistributor(
                store.slots(),
                tolerance,
                StoreMachineIdDistributor.DEFAULT_FOREVER_TTL,
                own,
                duration -> {
                    waits.add(duration);
                    pass(duration);
                },
                nanos::get);
    }

    /** A process's wall clock, for its generators. */
    InstantSource clockBehind(Duration behind) {
        return () -> clock.instant().minus(behind);
    }

    @Override
    public void close() {
        stores.forEach(Store::close);
    }
}
