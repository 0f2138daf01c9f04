package io.cosid.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("LeaseGuard applies the holder's rule")
class LeaseGuardTest {

    private static final Instant FLOOR = Instant.parse("2026-01-01T00:00:00Z");
    private final SlotLease lease = new SlotLease("ns", 3, "host-1", 7, 1, FLOOR, FLOOR.plusSeconds(40),
            FLOOR.plusSeconds(42), Duration.ofSeconds(30), Duration.ofSeconds(2));
    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final LeaseGuard guard = LeaseGuard.of(lease, nanos.get(), nanos::get);

    @Test
    @DisplayName("stamps only timestamps in [floor, ceiling)")
    void window() {
        assertThat(guard.mayStamp(FLOOR)).isTrue();
        assertThat(guard.mayStamp(FLOOR.minusMillis(1))).isFalse();
        assertThat(guard.mayStamp(FLOOR.plusSeconds(42).minusMillis(1))).isTrue();
        assertThat(guard.mayStamp(FLOOR.plusSeconds(42))).isFalse();
        assertThat(guard.mayStamp(FLOOR.toEpochMilli() + 5)).isTrue();
    }

    @Test
    @DisplayName("stops once ttl has passed on the monotonic clock since the request was sent")
    void monotonicTtl() {
        nanos.addAndGet(Duration.ofSeconds(29).toNanos());
        assertThat(guard.remaining()).isEqualTo(Duration.ofSeconds(1));
        assertThat(guard.isUsable()).isTrue();
        nanos.addAndGet(Duration.ofSeconds(1).toNanos());
        assertThat(guard.remaining()).isZero();
        assertThat(guard.isUsable()).isFalse();
        assertThat(guard.mayStamp(FLOOR.plusSeconds(1))).isFalse();
    }
}
