package io.cosid.store.spi;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosid.store.Namespace;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Slot choice order")
class SlotChoiceOrderTest {

    private final Namespace ns = new Namespace("workers", 8, Duration.ofSeconds(1));

    @Test
    @DisplayName("the owner index comes first, most recent first, then the preferred slot")
    void ownerIndexThenPreferred() {
        assertThat(SlotChoiceOrder.firstChoices(ns, List.of(5, 2), OptionalInt.of(7)))
                .containsExactly(5, 2, 7);
    }

    @Test
    @DisplayName("a slot the index lists beyond the limit is skipped")
    void beyondLimitSkipped() {
        assertThat(SlotChoiceOrder.firstChoices(ns, List.of(9, 3, 8), OptionalInt.empty()))
                .containsExactly(3);
    }

    @Test
    @DisplayName("each slot is tried once: a preferred slot the index lists keeps its index place")
    void noRepeats() {
        assertThat(SlotChoiceOrder.firstChoices(ns, List.of(4, 1), OptionalInt.of(1)))
                .containsExactly(4, 1);
    }

    @Test
    @DisplayName("with no index and no preference, only the lowest free slot is left to try")
    void nothingFirst() {
        assertThat(SlotChoiceOrder.firstChoices(ns, List.of(), OptionalInt.empty())).isEmpty();
    }
}
