package io.cosid.store.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cosid.store.Range;
import io.cosid.store.RangeExhaustedException;
import io.cosid.store.RangeSealedException;
import io.cosid.store.RangeState;
import io.cosid.store.RangeStore;
import io.cosid.store.Store;
import java.util.stream.Stream;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The RangeStore contract (docs/contract.md, "RangeStore"). A backend runs it by extending this
 * class and returning its fixture from {@link #createFixture()}. Concurrency, purge and corrupt
 * data are in its superclass ({@code RangeRacesPart}), whose groups run as this class's own.
 */
@DisplayName("RangeStore")
public abstract class RangeStoreContract extends RangeRacesPart {

    /** Creates the subclass. */
    protected RangeStoreContract() {}

    static Stream<String> invalidKeys() {
        return InvalidArguments.keys().stream();
    }

    static Stream<String> unusualValidKeys() {
        return InvalidArguments.unusualValidKeys().stream();
    }

    static Stream<Long> invalidSizes() {
        return InvalidArguments.sizes().stream();
    }

    @Nested
    @DisplayName("a key that was never used")
    class FreshKey {

        @Test
        @DisplayName("starts at next = 0")
        void startsAtZero() {
            assertThat(ranges().acquire("orders", 10)).isEqualTo(new Range("orders", 0, 10));
        }

        @Test
        @DisplayName("peeks as absent and is not listed")
        void isAbsent() {
            assertThat(ranges().peek("orders")).isEmpty();
            assertThat(ranges().list()).isEmpty();
        }
    }

    @Nested
    @DisplayName("acquire")
    class Acquire {

        @Test
        @DisplayName("hands out contiguous, disjoint ranges [start, start + size)")
        void contiguous() {
            assertThat(ranges().acquire("orders", 1)).isEqualTo(new Range("orders", 0, 1));
            assertThat(ranges().acquire("orders", 5)).isEqualTo(new Range("orders", 1, 6));
            assertThat(ranges().acquire("orders", 100)).isEqualTo(new Range("orders", 6, 106));
            assertThat(ranges().peek("orders")).contains(new RangeState(106, false));
        }

        @Test
        @DisplayName("keeps every key's counter separate, nested keys included")
        void keysAreIndependent() {
            ranges().acquire("orders", 10);
            assertThat(ranges().acquire("orders/eu", 3)).isEqualTo(new Range("orders/eu", 0, 3));
            assertThat(ranges().acquire("invoices", 7)).isEqualTo(new Range("invoices", 0, 7));
            assertThat(ranges().acquire("orders", 1)).isEqualTo(new Range("orders", 10, 11));
        }

        @Test
        @DisplayName("shares one counter across store instances")
        void sharedAcrossInstances() {
            Store other = anotherStore();
            assertThat(ranges().acquire("orders", 10).start()).isEqualTo(0);
            assertThat(other.ranges().acquire("orders", 10)).isEqualTo(new Range("orders", 10, 20));
            assertThat(ranges().acquire("orders", 10)).isEqualTo(new Range("orders", 20, 30));
        }

        @Test
        @DisplayName("reaches Long.MAX_VALUE exactly and no further")
        void upToMaxValue() {
            ranges().advance("orders", Long.MAX_VALUE - 10);
            assertThat(ranges().acquire("orders", 10))
                    .isEqualTo(new Range("orders", Long.MAX_VALUE - 10, Long.MAX_VALUE));
            assertThatThrownBy(() -> ranges().acquire("orders", 1))
                    .isInstanceOfSatisfying(
                            RangeExhaustedException.class,
                            e -> {
                                assertThat(e.key()).isEqualTo("orders");
                                assertThat(e.next()).isEqualTo(Long.MAX_VALUE);
                                assertThat(e.requestedSize()).isEqualTo(1);
                            });
        }

        @Test
        @DisplayName("refuses a range that would pass Long.MAX_VALUE and writes nothing")
        void overflowWritesNothing() {
            ranges().advance("orders", Long.MAX_VALUE - 5);
            Object before = observableState();
            assertThatThrownBy(() -> ranges().acquire("orders", 6))
                    .isInstanceOf(RangeExhaustedException.class)
                    .hasMessageContaining("orders");
            assertThatThrownBy(() -> ranges().acquire("orders", Long.MAX_VALUE))
                    .isInstanceOf(RangeExhaustedException.class);
            assertThat(observableState()).isEqualTo(before);
            assertThat(ranges().acquire("orders", 5))
                    .isEqualTo(new Range("orders", Long.MAX_VALUE - 5, Long.MAX_VALUE));
        }
    }

    @Nested
    @DisplayName("advance")
    class Advance {

        @Test
        @DisplayName("raises next and returns it")
        void raises() {
            ranges().acquire("orders", 10);
            assertThat(ranges().advance("orders", 1000)).isEqualTo(1000);
            assertThat(ranges().acquire("orders", 1)).isEqualTo(new Range("orders", 1000, 1001));
        }

        @Test
        @DisplayName("never lowers next: a lower value is a no-op that returns the current next")
        void neverLowers() {
            ranges().acquire("orders", 500);
            assertThat(ranges().advance("orders", 10)).isEqualTo(500);
            assertThat(ranges().advance("orders", 500)).isEqualTo(500);
            assertThat(ranges().peek("orders")).contains(new RangeState(500, false));
        }

        @Test
        @DisplayName("creates a fresh key at the given value")
        void createsFreshKey() {
            assertThat(ranges().advance("orders", 42)).isEqualTo(42);
            assertThat(ranges().peek("orders")).contains(new RangeState(42, false));
        }
    }

    @Nested
    @DisplayName("seal")
    class Seal {

        @Test
        @DisplayName("returns the final next and stops acquire and advance for good")
        void stopsAllocation() {
            ranges().acquire("orders", 25);
            assertThat(ranges().seal("orders")).isEqualTo(25);
            assertThatThrownBy(() -> ranges().acquire("orders", 1))
                    .isInstanceOfSatisfying(
                            RangeSealedException.class,
                            e -> {
                                assertThat(e.key()).isEqualTo("orders");
                                assertThat(e.finalNext()).isEqualTo(25);
                            });
            assertThatThrownBy(() -> ranges().advance("orders", 100))
                    .isInstanceOf(RangeSealedException.class);
            assertThatThrownBy(() -> ranges().advance("orders", 1))
                    .isInstanceOf(RangeSealedException.class);
        }

        @Test
        @DisplayName("is idempotent")
        void idempotent() {
            ranges().acquire("orders", 7);
            assertThat(ranges().seal("orders")).isEqualTo(7);
            Object before = observableState();
            assertThat(ranges().seal("orders")).isEqualTo(7);
            assertThat(observableState()).isEqualTo(before);
        }

        @Test
        @DisplayName("shows sealed = true in peek and list, to every store instance")
        void visible() {
            ranges().acquire("orders", 3);
            ranges().seal("orders");
            Store other = anotherStore();
            assertThat(other.ranges().peek("orders")).contains(new RangeState(3, true));
            assertThat(other.ranges().list()).containsEntry("orders", new RangeState(3, true));
            assertThatThrownBy(() -> other.ranges().acquire("orders", 1))
                    .isInstanceOf(RangeSealedException.class);
        }

        @Test
        @DisplayName("seals a key that was never used at 0")
        void freshKey() {
            assertThat(ranges().seal("orders")).isZero();
            assertThat(ranges().peek("orders")).contains(new RangeState(0, true));
        }
    }

    @Nested
    @DisplayName("arguments")
    class Arguments {

        @ParameterizedTest(name = "key \"{0}\"")
        @MethodSource("io.cosid.store.tck.RangeStoreContract#invalidKeys")
        @DisplayName(
                "an invalid key is refused by every operation, naming the key rule, and nothing is"
                        + " written")
        void invalidKey(String key) {
            Object before = observableState();
            assertThatThrownBy(() -> ranges().acquire(key, 1))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("key")
                    .hasMessageContaining("segments");
            assertThatThrownBy(() -> ranges().peek(key))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> ranges().advance(key, 5))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> ranges().seal(key))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThat(observableState()).isEqualTo(before);
        }

        @Test
        @DisplayName("a null key is refused")
        @SuppressWarnings("NullAway") // null on purpose: the contract refuses it
        void nullKey() {
            assertThatThrownBy(() -> ranges().acquire(null, 1))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("key must not be null");
        }

        @ParameterizedTest(name = "key \"{0}\"")
        @MethodSource("io.cosid.store.tck.RangeStoreContract#unusualValidKeys")
        @DisplayName("an unusual but valid key works")
        void unusualKey(String key) {
            assertThat(ranges().acquire(key, 2)).isEqualTo(new Range(key, 0, 2));
            assertThat(ranges().acquire(key, 2)).isEqualTo(new Range(key, 2, 4));
            assertThat(ranges().list()).containsEntry(key, new RangeState(4, false));
        }

        @ParameterizedTest(name = "size {0}")
        @MethodSource("io.cosid.store.tck.RangeStoreContract#invalidSizes")
        @DisplayName("a size below 1 is refused, naming the size, and nothing is written")
        void invalidSize(long size) {
            ranges().acquire("orders", 1);
            Object before = observableState();
            assertThatThrownBy(() -> ranges().acquire("orders", size))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("size must be at least 1")
                    .hasMessageContaining(Long.toString(size));
            assertThat(observableState()).isEqualTo(before);
        }

        @Test
        @DisplayName("advancing to a negative value is refused")
        void negativeAdvance() {
            assertThatThrownBy(() -> ranges().advance("orders", -1))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("atLeast");
            assertThat(ranges().peek("orders")).isEmpty();
        }
    }

    @Nested
    @DisplayName("after close")
    class AfterClose {

        @Test
        @DisplayName("every operation throws IllegalStateException")
        void refusesEverything() {
            Store closing = anotherStore();
            closing.close();
            closing.close(); // idempotent
            RangeStore closed = closing.ranges();
            assertThatThrownBy(() -> closed.acquire("orders", 1))
                    .isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> closed.peek("orders"))
                    .isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> closed.advance("orders", 1))
                    .isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> closed.seal("orders"))
                    .isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(closed::list).isInstanceOf(IllegalStateException.class);
            assertThat(ranges().peek("orders")).isEmpty();
        }
    }

    @Nested
    @DisplayName("inspection")
    class Inspection {

        @Test
        @DisplayName("lists every key in order with its next and sealed state")
        void listsKeys() {
            ranges().acquire("b", 5);
            ranges().acquire("a/x", 2);
            ranges().advance("c", 9);
            ranges().seal("c");
            assertThat(ranges().list())
                    .containsExactly(
                            Assertions.entry("a/x", new RangeState(2, false)),
                            Assertions.entry("b", new RangeState(5, false)),
                            Assertions.entry("c", new RangeState(9, true)));
        }
    }
}
