package io.cosid.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosid.store.StoreObserver.LeaseEvent;
import io.cosid.store.StoreObserver.LeaseEvent.Kind;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("HeldLeases: the leases this process holds, per store")
class HeldLeasesTest {

    private final AtomicLong nanos = new AtomicLong(1_000);
    private final HeldLeases held = new HeldLeases(nanos::get);

    private static SlotLease lease(int slot, long fence) {
        Instant t = Instant.parse("2026-12-07T00:00:00Z");
        return new SlotLease(
                "workers",
                slot,
                "host-" + slot,
                fence,
                1,
                t,
                t.plusSeconds(30),
                t.plusSeconds(32),
                Duration.ofSeconds(30),
                Duration.ofSeconds(2));
    }

    private void tell(String store, Kind kind, SlotLease lease, Duration validFor) {
        held.lease(new LeaseEvent(store, "in-memory", kind, lease, validFor, Duration.ZERO));
    }

    @Test
    @DisplayName("a term counts as valid until its validity runs out, then as overdue")
    void validThenOverdue() {
        tell("main", Kind.ACQUIRED, lease(0, 1), Duration.ofSeconds(10));
        tell("main", Kind.ACQUIRED, lease(1, 1), Duration.ofSeconds(20));
        assertThat(held.of("main"))
                .isEqualTo(new HeldLeases.Held(2, 0, Optional.of(Duration.ofSeconds(10))));
        nanos.addAndGet(Duration.ofSeconds(15).toNanos());
        assertThat(held.of("main"))
                .isEqualTo(new HeldLeases.Held(1, 1, Optional.of(Duration.ofSeconds(5))));
        nanos.addAndGet(Duration.ofSeconds(5).toNanos());
        assertThat(held.of("main")).isEqualTo(new HeldLeases.Held(0, 2, Optional.empty()));
    }

    @Test
    @DisplayName("a renewal extends the term; a release or a loss ends it")
    void renewReleaseLose() {
        tell("main", Kind.ACQUIRED, lease(0, 1), Duration.ofSeconds(1));
        tell("main", Kind.ACQUIRED, lease(1, 1), Duration.ofSeconds(1));
        nanos.addAndGet(Duration.ofMillis(900).toNanos());
        tell("main", Kind.RENEWED, lease(0, 1), Duration.ofSeconds(1));
        nanos.addAndGet(Duration.ofMillis(200).toNanos());
        assertThat(held.of("main").valid()).isEqualTo(1);
        assertThat(held.of("main").overdue()).isEqualTo(1);
        tell("main", Kind.RELEASED, lease(0, 1), Duration.ZERO);
        tell("main", Kind.LOST, lease(1, 1), Duration.ZERO);
        assertThat(held.of("main")).isEqualTo(new HeldLeases.Held(0, 0, Optional.empty()));
    }

    @Test
    @DisplayName("stores are kept apart, and a closed store's leases are forgotten")
    void perStore() {
        tell("a", Kind.ACQUIRED, lease(0, 1), Duration.ofSeconds(1));
        tell("b", Kind.ACQUIRED, lease(0, 1), Duration.ofSeconds(1));
        held.closed("a", "in-memory");
        assertThat(held.of("a").valid()).isZero();
        assertThat(held.of("b").valid()).isOne();
        assertThat(held.of("never-seen")).isEqualTo(new HeldLeases.Held(0, 0, Optional.empty()));
    }

    @Test
    @DisplayName("the same event told twice counts once (a tracker fed by two observers)")
    void idempotent() {
        tell("main", Kind.ACQUIRED, lease(0, 1), Duration.ofSeconds(1));
        tell("main", Kind.ACQUIRED, lease(0, 1), Duration.ofSeconds(1));
        assertThat(held.of("main").valid()).isOne();
        tell("main", Kind.RELEASED, lease(0, 1), Duration.ZERO);
        tell("main", Kind.RELEASED, lease(0, 1), Duration.ZERO);
        assertThat(held.of("main").valid()).isZero();
    }
}
