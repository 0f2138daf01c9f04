package io.cosid.store.spi;

import static io.cosid.store.spi.RangeHistory.UNORDERED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cosid.store.StoreCorruptedException;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

@DisplayName("RangeHistory: which later states of a range key a store accepts")
class RangeHistoryTest {

    private static final String WHERE = "range key 'orders'";

    /** A history that saw the key at identity 7, order 100, next 50, sealed as given. */
    private static RangeHistory saw(boolean sealed) {
        RangeHistory h = new RangeHistory(WHERE);
        h.seen(null, 7, 100, 50, sealed);
        return h;
    }

    static Stream<Arguments> laterStates() {
        return Stream.of(
                // identity, order, next, sealed, refusal (null: accepted)
                Arguments.of(false, 7, 101, 50, false, null),
                Arguments.of(false, 7, 101, 60, false, null),
                Arguments.of(false, 7, 101, 50, true, null),
                Arguments.of(false, 7, 101, 49, false, "below 50"),
                Arguments.of(false, 7, 101, 49, true, "below 50"),
                Arguments.of(false, 8, 101, 60, false, "recreated"),
                Arguments.of(true, 7, 101, 50, true, null),
                Arguments.of(true, 7, 101, 70, true, null),
                Arguments.of(true, 7, 101, 50, false, "unsealed"),
                Arguments.of(true, 7, 101, 10, false, "below 50"),
                // an older reply (by order) is neither judged nor remembered
                Arguments.of(false, 7, 99, 10, false, null),
                Arguments.of(true, 7, 100, 50, false, null));
    }

    @ParameterizedTest(name = "seen sealed={0}, then identity {1} order {2} next {3} sealed={4}")
    @MethodSource("laterStates")
    @DisplayName("ordered states: judged against the highest state the store saw")
    void orderedStates(
            boolean sealedFirst,
            long identity,
            long order,
            long next,
            boolean sealed,
            @Nullable String refusal) {
        RangeHistory h = saw(sealedFirst);
        if (refusal == null) {
            h.seen(null, identity, order, next, sealed);
            assertThat(h.highestNext()).isGreaterThanOrEqualTo(50);
        } else {
            assertThatThrownBy(() -> h.seen(null, identity, order, next, sealed))
                    .isInstanceOf(StoreCorruptedException.class)
                    .hasMessageContaining(WHERE)
                    .hasMessageContaining(refusal);
            assertThat(h.mark()).isEqualTo(new RangeHistory.Mark(7, 100, 50, sealedFirst));
        }
    }

    @Test
    @DisplayName(
            "unordered states: a late reply is judged against the mark its request was sent"
                    + " under, and never lowers the mark")
    void unorderedLateReply() {
        RangeHistory h = new RangeHistory(WHERE);
        h.seen(null, 3, UNORDERED, 10, false);
        RangeHistory.Mark sentUnder = h.mark();
        h.seen(h.mark(), 3, UNORDERED, 40, true); // another thread's write, answered first
        h.seen(sentUnder, 3, UNORDERED, 20, false); // the earlier request's reply, late
        assertThat(h.mark()).isEqualTo(new RangeHistory.Mark(3, UNORDERED, 40, true));
        assertThatThrownBy(() -> h.seen(h.mark(), 3, UNORDERED, 40, false))
                .hasMessageContaining("unsealed");
        assertThatThrownBy(() -> h.seen(sentUnder, 3, UNORDERED, 9, false))
                .hasMessageContaining("below 10");
    }

    @Test
    @DisplayName("a refused state is not remembered; the repair (raised to the mark) is accepted")
    void refusedNotRemembered() {
        RangeHistory h = saw(false);
        assertThatThrownBy(() -> h.seen(h.mark(), 7, 101, 10, false))
                .isInstanceOf(StoreCorruptedException.class);
        assertThat(h.highestNext()).isEqualTo(50);
        h.seen(h.mark(), 7, 102, 50, false);
        assertThat(h.highestNext()).isEqualTo(50);
    }

    @Test
    @DisplayName("a key deleted after the store saw it is named with the value to restore")
    void gone() {
        RangeHistory h = saw(false);
        assertThat(h.known()).isTrue();
        assertThat(h.gone(h.mark()))
                .hasMessageContaining(WHERE)
                .hasMessageContaining("deleted")
                .hasMessageContaining("at 50 or higher");
        assertThat(new RangeHistory(WHERE).known()).isFalse();
        assertThat(new RangeHistory(WHERE).highestNext()).isZero();
    }
}
