package io.cosid.store.tck;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/** A store clock that tests set by hand, forward and backward. Thread-safe. */
public final class ManualClock implements InstantSource {

    private final AtomicReference<Instant> now;

    /**
     * A clock that starts at a given instant.
     *
     * @param start the first reading
     */
    public ManualClock(Instant start) {
        this.now = new AtomicReference<>(start);
    }

    @Override
    public Instant instant() {
        return Objects.requireNonNull(now.get(), "a manual clock always has a time");
    }

    /**
     * Moves the clock forward.
     *
     * @param duration how far, at least zero
     * @return the new reading
     */
    public Instant advance(Duration duration) {
        if (duration.isNegative()) {
            throw new IllegalArgumentException(
                    "advance takes a duration of at least zero, got " + duration);
        }
        return now.updateAndGet(t -> t.plus(duration));
    }

    /**
     * Moves the clock backward, as a store clock that steps back (NTP, leader change) does.
     *
     * @param duration how far, at least zero
     * @return the new reading
     */
    public Instant stepBack(Duration duration) {
        if (duration.isNegative()) {
            throw new IllegalArgumentException(
                    "stepBack takes a duration of at least zero, got " + duration);
        }
        return now.updateAndGet(t -> t.minus(duration));
    }

    /**
     * Sets the clock.
     *
     * @param instant the new reading
     */
    public void set(Instant instant) {
        now.set(instant);
    }
}
