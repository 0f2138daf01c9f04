package io.cosid.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Value types check themselves")
class ValueTypesTest {

    @Test
    @DisplayName("a range is [start, end) with start < end")
    void range() {
        Range r = new Range("k", 10, 20);
        assertThat(r.size()).isEqualTo(10);
        assertThat(r.contains(10)).isTrue();
        assertThat(r.contains(20)).isFalse();
        assertThat(r.overlaps(new Range("k", 19, 30))).isTrue();
        assertThat(r.overlaps(new Range("k", 20, 30))).isFalse();
        assertThat(r.overlaps(new Range("other", 10, 20))).isFalse();
        assertThatThrownBy(() -> new Range("k", 5, 5))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("[5, 5)");
    }

    @Test
    @DisplayName("a lease has a fence and incarnation of at least 1 and ceiling >= expiresAt")
    void lease() {
        Instant t = Instant.EPOCH;
        assertThatThrownBy(
                        () ->
                                new SlotLease(
                                        "n",
                                        0,
                                        "o",
                                        0,
                                        1,
                                        t,
                                        t,
                                        t,
                                        Duration.ofSeconds(1),
                                        Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("fence=0");
        assertThatThrownBy(
                        () ->
                                new SlotLease(
                                        "n",
                                        0,
                                        "o",
                                        1,
                                        1,
                                        t,
                                        t.plusSeconds(1),
                                        t,
                                        Duration.ofSeconds(1),
                                        Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    @DisplayName("a namespace follows the define rules")
    void namespace() {
        assertThatThrownBy(() -> new Namespace("a/b", 1, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Namespace("a", 0, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(new Namespace("a", 4, Duration.ZERO).contains(3)).isTrue();
        assertThat(new Namespace("a", 4, Duration.ZERO).contains(4)).isFalse();
    }

    @Test
    @DisplayName("a snapshot lists the held slots at its now")
    void snapshot() {
        Instant now = Instant.parse("2026-01-01T00:00:10Z");
        SlotView held =
                new SlotView(
                        "n",
                        0,
                        "a",
                        1,
                        1,
                        Instant.EPOCH,
                        now.plusSeconds(1),
                        now.plusSeconds(2),
                        now.plusSeconds(2),
                        false,
                        Instant.EPOCH,
                        Duration.ofSeconds(5));
        SlotView expired =
                new SlotView(
                        "n",
                        1,
                        "b",
                        1,
                        1,
                        Instant.EPOCH,
                        now,
                        now.plusSeconds(1),
                        now.plusSeconds(1),
                        false,
                        Instant.EPOCH,
                        Duration.ofSeconds(5));
        SlotView released =
                new SlotView(
                        "n",
                        2,
                        "c",
                        1,
                        1,
                        Instant.EPOCH,
                        now.plusSeconds(9),
                        now.plusSeconds(9),
                        now,
                        true,
                        now.minusSeconds(3),
                        Duration.ofSeconds(5));
        NamespaceSnapshot s =
                new NamespaceSnapshot(
                        new Namespace("n", 4, Duration.ZERO),
                        now,
                        List.of(held, expired, released));
        assertThat(s.held()).containsExactly(held);
        assertThat(expired.holderAt(now)).isEmpty();
        assertThat(held.holderAt(now)).contains("a");
        assertThat(held.freeSince(now)).isEmpty();
        assertThat(expired.freeSince(now)).contains(now);
        assertThat(released.freeSince(now)).contains(now.minusSeconds(3));
    }

    @Test
    @DisplayName("exceptions carry their context")
    void exceptions() {
        assertThat(
                        new StoreTimeoutException(
                                "acquire on range key 'k'", Duration.ofSeconds(3), null))
                .hasMessageContaining("'k'")
                .hasMessageContaining("timeout of 3s");
        assertThat(new StoreCorruptedException("range key 'k'", "'x' does not parse").location())
                .isEqualTo("range key 'k'");
        assertThat(new NamespaceNotFoundException("n")).hasMessageContaining("'n'");
        assertThat(new SlotsExhaustedException("n", 4)).hasMessageContaining("all 4 slots");
        assertThat(new LeaseLostException("n", 2, 9, "released").fence()).isEqualTo(9);
    }
}
