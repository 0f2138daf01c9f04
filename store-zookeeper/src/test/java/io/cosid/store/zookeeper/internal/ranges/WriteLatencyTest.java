package io.cosid.store.zookeeper.internal.ranges;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The write round-trip estimate behind the line's stall rule; the line itself is LineTest's. */
@DisplayName("Write latency estimate")
class WriteLatencyTest {

    @Test
    @DisplayName("starts at 1 ms and follows the measured round trips")
    void followsRoundTrips() {
        WriteLatency latency = new WriteLatency();
        assertThat(latency.writeNanos()).isEqualTo(1_000_000L);
        for (int i = 0; i < 200; i++) {
            latency.landed(100_000); // 0.1 ms writes
        }
        assertThat(latency.writeNanos()).isBetween(100_000L, 110_000L);
        for (int i = 0; i < 200; i++) {
            latency.landed(50_000_000); // a busy machine: 50 ms writes
        }
        assertThat(latency.writeNanos()).isBetween(49_000_000L, 50_000_000L);
    }

    @Test
    @DisplayName("counts a write that took no measurable time as 1 ns, never as 0 or less")
    void neverZero() {
        WriteLatency latency = new WriteLatency();
        for (int i = 0; i < 500; i++) {
            latency.landed(0);
        }
        assertThat(latency.writeNanos()).isPositive();
    }
}
