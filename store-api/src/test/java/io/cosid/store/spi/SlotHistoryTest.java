package io.cosid.store.spi;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosid.store.SlotView;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("SlotHistory: which later slot states can follow an earlier one")
class SlotHistoryTest {

    private static final Instant T = Instant.parse("2026-12-03T00:00:00Z");
    private static final Duration TTL = Duration.ofSeconds(10);

    /** An open term: held (or expired, never released). */
    private static SlotView held(long fence, Instant floor, Instant ceiling) {
        return new SlotView(
                "ns",
                0,
                "a",
                fence,
                1,
                floor,
                ceiling.minusSeconds(1),
                ceiling,
                ceiling,
                false,
                Instant.EPOCH,
                TTL);
    }

    private static SlotView released(long fence, Instant floor, Instant ceiling, Instant bound) {
        return new SlotView(
                "ns",
                0,
                "a",
                fence,
                1,
                floor,
                ceiling.minusSeconds(1),
                ceiling,
                bound,
                true,
                T,
                TTL);
    }

    private static SlotView advancedOnly(long fence, Instant nextFloor) {
        return new SlotView(
                "ns",
                0,
                "",
                fence,
                0,
                Instant.EPOCH,
                Instant.EPOCH,
                Instant.EPOCH,
                nextFloor,
                false,
                Instant.EPOCH,
                Duration.ZERO);
    }

    @Test
    @DisplayName(
            "the contract's own transitions all follow: renew, release, the next term, advance")
    void legalTransitions() {
        SlotView term = held(2, T, T.plusSeconds(12));
        assertThat(SlotHistory.whyNotAfter(term, held(2, T, T.plusSeconds(20))))
                .as("renewed")
                .isNull();
        SlotView declared = released(2, T, T.plusSeconds(20), T.plusSeconds(3));
        assertThat(SlotHistory.whyNotAfter(term, declared))
                .as("released, declaring a bound")
                .isNull();
        assertThat(SlotHistory.whyNotAfter(term, held(3, T.plusSeconds(3), T.plusSeconds(30))))
                .as("a later term after a release this store did not see")
                .isNull();
        assertThat(SlotHistory.whyNotAfter(declared, held(3, T.plusSeconds(3), T.plusSeconds(30))))
                .isNull();
        assertThat(SlotHistory.whyNotAfter(declared, advancedOnly(9, T.plusSeconds(60))))
                .as("advanced")
                .isNull();
        assertThat(SlotHistory.whyNotAfter(term, term)).as("the same state again").isNull();
    }

    @Test
    @DisplayName("a fence that went back is refused (a node deleted and created again)")
    void fenceBack() {
        assertThat(
                        SlotHistory.whyNotAfter(
                                held(2, T, T.plusSeconds(12)),
                                held(1, Instant.EPOCH, T.plusSeconds(30))))
                .contains("fence went back from 2 to 1");
    }

    @Test
    @DisplayName("within one term the owner and the floor stay and the ceiling never goes back")
    void sameTerm() {
        SlotView term = held(2, T, T.plusSeconds(12));
        SlotView otherOwner =
                new SlotView(
                        "ns",
                        0,
                        "b",
                        2,
                        1,
                        T,
                        T.plusSeconds(20),
                        T.plusSeconds(21),
                        T.plusSeconds(21),
                        false,
                        Instant.EPOCH,
                        TTL);
        assertThat(SlotHistory.whyNotAfter(term, otherOwner))
                .contains("owner of fence 2 changed from 'a' to 'b'");
        assertThat(SlotHistory.whyNotAfter(term, held(2, T.minusSeconds(1), T.plusSeconds(12))))
                .contains("floor of fence 2 changed");
        assertThat(SlotHistory.whyNotAfter(term, held(2, T, T.plusSeconds(11))))
                .contains("ceiling of fence 2 went back");
    }

    @Test
    @DisplayName(
            "the lowest next floor never goes back: a released term reopened, a later term below"
                    + " it")
    void nextFloorBack() {
        SlotView declared = released(2, T, T.plusSeconds(20), T.plusSeconds(3));
        assertThat(SlotHistory.whyNotAfter(declared, held(2, T, T.plusSeconds(20))))
                .contains("lowest floor its next term may get went back");
        assertThat(SlotHistory.whyNotAfter(declared, held(3, T.plusSeconds(2), T.plusSeconds(30))))
                .contains("went back");
        assertThat(SlotHistory.whyNotAfter(declared, advancedOnly(9, T))).contains("went back");
    }

    @Test
    @DisplayName("the repair names a fence above and a floor at or above what the store saw")
    void repair() {
        assertThat(SlotHistory.repair(held(2, T, T.plusSeconds(12))))
                .contains("fence 3")
                .contains(T.plusSeconds(12).toString());
    }
}
