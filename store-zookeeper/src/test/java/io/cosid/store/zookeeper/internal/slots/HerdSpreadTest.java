package io.cosid.store.zookeeper.internal.slots;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.OptionalInt;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Where an acquire tries: after a lost race, and on its first attempt")
class HerdSpreadTest {

    @Test
    @DisplayName("with nobody else writing the clock in between, the lowest free slot")
    void alone() {
        assertThat(HerdSpread.position(1_001, 1_000, 1 << 16)).isZero();
        assertThat(HerdSpread.position(7, 6, 1 << 16)).isZero();
    }

    @Test
    @DisplayName(
            "a herd whose estimates differ within one power of two points at distinct positions")
    void herdSpreads() {
        int herd = 1000;
        int firstTicket = 50_000;
        Set<Integer> positions = new HashSet<>();
        for (int i = 0; i < herd; i++) {
            int ticket = firstTicket + i;
            // each saw between 600 and 1000 other clock writes since its previous attempt
            int previous = ticket - (600 + (i * 7919) % 401);
            int position = HerdSpread.position(ticket, previous, 1 << 16);
            assertThat(position).isBetween(0, 1023);
            positions.add(position);
        }
        assertThat(positions).hasSize(herd);
    }

    @Test
    @DisplayName("two contenders spread over the lowest two free slots")
    void twoContenders() {
        assertThat(
                        Set.of(
                                HerdSpread.position(11, 9, 1 << 16),
                                HerdSpread.position(12, 10, 1 << 16)))
                .containsExactlyInAnyOrder(0, 1);
    }

    @Test
    @DisplayName("the clock node's version wrapping past 2^31 - 1 keeps the estimate")
    void versionWraps() {
        int position = HerdSpread.position(Integer.MIN_VALUE + 1, Integer.MAX_VALUE - 1, 1 << 16);
        assertThat(position).isBetween(0, 3);
        assertThat(position).isEqualTo(Math.floorMod(Integer.MIN_VALUE + 1, 4));
    }

    @Test
    @DisplayName("a herd as large as the namespace points at distinct slots inside it")
    void herdAsLargeAsTheNamespace() {
        Set<Integer> positions = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            int ticket = 70_001 + i;
            positions.add(HerdSpread.position(ticket, ticket - 1200 - i % 300, 1000));
        }
        assertThat(positions).hasSize(1000).allMatch(p -> p >= 0 && p < 1000);
    }

    @Test
    @DisplayName("a clock node whose version went back (recreated) gives the lowest free slot")
    void versionWentBack() {
        assertThat(HerdSpread.position(3, 90_000, 1 << 16)).isZero();
    }

    @Test
    @DisplayName("a first attempt right after the last finished one takes the lowest free slot")
    void firstAttemptAlone() {
        assertThat(HerdSpread.firstPosition(8, OptionalInt.of(7), 1024)).isZero();
        assertThat(HerdSpread.firstPosition(8, OptionalInt.empty(), 1024)).isZero();
    }

    @Test
    @DisplayName("first attempts of a herd that started before any landed point at distinct slots")
    void firstAttemptsOfAHerd() {
        Set<Integer> positions = new HashSet<>();
        for (int ticket = 101; ticket <= 600; ticket++) {
            positions.add(HerdSpread.firstPosition(ticket, OptionalInt.of(100), 1024));
        }
        assertThat(positions).hasSize(500).allMatch(p -> p >= 0 && p < 500);
    }

    @Test
    @DisplayName("a hint ahead of the ticket counts as none; a position stays inside the limit")
    void firstAttemptBounds() {
        assertThat(HerdSpread.firstPosition(8, OptionalInt.of(99), 1024)).isZero();
        assertThat(HerdSpread.firstPosition(5_000, OptionalInt.of(0), 16)).isEqualTo(15);
        assertThat(
                        HerdSpread.firstPosition(
                                Integer.MIN_VALUE + 2, OptionalInt.of(Integer.MAX_VALUE), 16))
                .as("across the version wrap")
                .isEqualTo(2);
    }

    @Test
    @DisplayName(
            "a hint is a decimal ticket, after a landing with a colon and the slot; anything else"
                    + " reads as no hint")
    void hintText() {
        assertThat(HerdSpread.landed(HerdSpread.hint(-42))).hasValue(-42);
        assertThat(HerdSpread.landed(HerdSpread.hint(Integer.MAX_VALUE)))
                .hasValue(Integer.MAX_VALUE);
        assertThat(HerdSpread.landed(HerdSpread.hint(17, 1023))).hasValue(17);
        assertThat(HerdSpread.landedSlot(HerdSpread.hint(17, 1023))).hasValue(1023);
        assertThat(HerdSpread.landedSlot(HerdSpread.hint(17))).isEmpty();
        assertThat(HerdSpread.landed("17:-1".getBytes(StandardCharsets.US_ASCII))).isEmpty();
        assertThat(HerdSpread.landedSlot("17:x".getBytes(StandardCharsets.US_ASCII))).isEmpty();
        assertThat(HerdSpread.landed(null)).isEmpty();
        assertThat(HerdSpread.landed(new byte[0])).isEmpty();
        assertThat(HerdSpread.landed("12x".getBytes(StandardCharsets.US_ASCII))).isEmpty();
        assertThat(HerdSpread.landed("99999999999".getBytes(StandardCharsets.US_ASCII))).isEmpty();
    }
}
