package io.cosid.store.zookeeper.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cosid.store.StoreCorruptedException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("TurnSchedule: who writes each slot of an epoch, and over what")
class TurnScheduleTest {

    /** Opened by A (size 100) over next=1000 at version 7; then B (5), then C (1). */
    private final TurnSchedule plan =
            new TurnSchedule(
                    7,
                    1000,
                    42,
                    List.of("w-s100-a-0000000003", "w-s5-b-0000000001", "w-s1-c-0000000002"),
                    new long[] {100, 5, 1},
                    new int[] {10, 20, 30});

    @Test
    @DisplayName(
            "slot u belongs to seat u mod n and writes over version base+u and the sizes before it")
    void slots() {
        assertThat(plan.slot(0)).isEqualTo(new TurnSchedule.Slot(0, 0, 7, 1000));
        assertThat(plan.slot(1)).isEqualTo(new TurnSchedule.Slot(1, 1, 8, 1100));
        assertThat(plan.slot(2)).isEqualTo(new TurnSchedule.Slot(2, 2, 9, 1105));
        assertThat(plan.slot(3)).isEqualTo(new TurnSchedule.Slot(3, 0, 10, 1106));
        assertThat(plan.slot(4)).isEqualTo(new TurnSchedule.Slot(4, 1, 11, 1206));
        assertThat(plan.nextOf(1)).isEqualTo(4);
    }

    @Test
    @DisplayName(
            "a seat's node version before a slot counts the turns it made before it, the opening"
                    + " included")
    void seatVersions() {
        assertThat(plan.seatVersionBefore(0, 1)).isEqualTo(11); // the opening bumped A
        assertThat(plan.seatVersionBefore(0, 3)).isEqualTo(11);
        assertThat(plan.seatVersionBefore(0, 4)).isEqualTo(12);
        assertThat(plan.seatVersionBefore(1, 1)).isEqualTo(20);
        assertThat(plan.seatVersionBefore(1, 2)).isEqualTo(21);
        assertThat(plan.seatVersionBefore(2, 3)).isEqualTo(31);
        assertThat(plan.seatVersionBefore(2, 6)).isEqualTo(32);
    }

    @Test
    @DisplayName("no slot is computed where a value would overflow or a version reaches -1")
    void limits() {
        TurnSchedule nearEnd =
                new TurnSchedule(
                        7, Long.MAX_VALUE - 104, 42, plan.seats(), plan.sizes(), plan.versions());
        assertThat(nearEnd.slot(1)).isNotNull();
        assertThat(nearEnd.slot(2)).isNull();
        TurnSchedule wrap =
                new TurnSchedule(-3, 1000, 42, plan.seats(), plan.sizes(), plan.versions());
        assertThat(wrap.slot(1)).isNotNull();
        assertThat(wrap.slot(2)).isNull();
        assertThat(wrap.slot(3)).isNull();
        TurnSchedule top =
                new TurnSchedule(
                        Integer.MAX_VALUE, 1000, 42, plan.seats(), plan.sizes(), plan.versions());
        assertThat(top.slot(1).version()).isEqualTo(Integer.MIN_VALUE);
    }

    @Test
    @DisplayName("is written into the line node and read back as it was")
    void roundTrip() {
        TurnSchedule back = TurnSchedule.decode("line", plan.encode());
        assertThat(back.base()).isEqualTo(7);
        assertThat(back.next()).isEqualTo(1000);
        assertThat(back.czxid()).isEqualTo(42);
        assertThat(back.seats()).isEqualTo(plan.seats());
        assertThat(back.sizes()).containsExactly(100, 5, 1);
        assertThat(back.versions()).containsExactly(10, 20, 30);
        assertThat(TurnSchedule.decode("line", new byte[0])).isNull();
    }

    @Test
    @DisplayName("line node data that is neither empty nor a schedule is reported as corrupt")
    void corrupt() {
        assertThatThrownBy(
                        () -> TurnSchedule.decode("line", "hello".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(StoreCorruptedException.class);
        assertThatThrownBy(
                        () ->
                                TurnSchedule.decode(
                                        "line",
                                        "base=1\nnext=2\nczxid=3\nseats=w-stalled-0000000001:4\n"
                                                .getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(StoreCorruptedException.class)
                .hasMessageContaining("sized seat");
    }
}
