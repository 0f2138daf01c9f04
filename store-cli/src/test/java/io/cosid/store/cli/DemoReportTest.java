package io.cosid.store.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosid.store.SlotLease;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The demo summary's "what happened": the reasons a run went otherwise than planned. */
@DisplayName("demo: what happened, in words")
class DemoReportTest {

    private static final Instant T0 = Instant.parse("2026-12-06T12:00:00Z");
    private static final Duration TTL = Duration.ofSeconds(1);

    private static SlotLease lease(int slot, long fence, String owner) {
        Instant floor = T0.plusSeconds(10L * fence);
        return new SlotLease(
                "demo",
                slot,
                owner,
                fence,
                1,
                floor,
                floor.plus(TTL),
                floor.plus(TTL).plusMillis(200),
                TTL,
                Duration.ofMillis(200));
    }

    @Test
    @DisplayName("a run as planned has nothing to explain")
    void asPlanned() {
        DemoReport report =
                new DemoReport(
                        List.of(
                                new DemoFleet.LeaseEvent(
                                        "acquired", "instance-1", lease(1, 1, "instance-1"), T0)));

        assertThat(report.explain(List.of("instance-1"), List.of(1), List.of(1), TTL, 0)).isEmpty();
    }

    @Test
    @DisplayName(
            "a lost lease, a crash without a machine id, a restart elsewhere and timeouts are each"
                    + " said with their cause")
    void degraded() {
        DemoReport report =
                new DemoReport(
                        List.of(
                                new DemoFleet.LeaseEvent(
                                        "acquired", "instance-7", lease(0, 1, "instance-7"), T0),
                                new DemoFleet.LeaseEvent(
                                        "lost", "instance-7", lease(0, 1, "instance-7"), T0)));

        List<String> why =
                report.explain(
                        List.of("instance-6", "instance-7"), List.of(1, -1), List.of(3, 0), TTL, 2);

        assertThat(report.lost).containsExactly("instance-7 on slot 0 (fence 1)");
        assertThat(why)
                .hasSize(4)
                .anySatisfy(
                        w ->
                                assertThat(w)
                                        .startsWith("1 lease(s) lost (instance-7 on slot 0")
                                        .contains("not renewed within the ttl of 1s")
                                        .contains("IDs stayed unique"))
                .anySatisfy(
                        w ->
                                assertThat(w)
                                        .startsWith("instance-6 came back on slot 3, not 1")
                                        .contains("not free when it restarted"))
                .anySatisfy(
                        w ->
                                assertThat(w)
                                        .startsWith(
                                                "instance-7 held no machine id when it was"
                                                        + " crashed"))
                .anySatisfy(w -> assertThat(w).startsWith("2 store operation(s) timed out"));
    }

    @Test
    @DisplayName(
            "a lease renewed after it had lapsed (the store stopped answering past the ttl) is"
                    + " not 'as planned', and its term goes on")
    void lapsed() {
        SlotLease held = lease(2, 1, "instance-3");
        DemoReport report =
                new DemoReport(
                        List.of(
                                new DemoFleet.LeaseEvent("acquired", "instance-3", held, T0),
                                new DemoFleet.LeaseEvent(
                                        "lapsed", "instance-3", held, T0.plusSeconds(3)),
                                new DemoFleet.LeaseEvent(
                                        "renewed", "instance-3", held, T0.plusSeconds(3))));

        assertThat(report.explain(List.of(), List.of(), List.of(), TTL, 0))
                .singleElement()
                .asString()
                .startsWith("1 renewal(s) came after the lease had lapsed (instance-3 on slot 2")
                .contains("generation paused");
        assertThat(report.bySlot.get(2))
                .singleElement()
                .satisfies(t -> assertThat(t.ended).isEqualTo("held"));
    }
}
