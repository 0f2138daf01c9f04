package io.cosid.store.zookeeper.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Where an acquire that lost a race tries next")
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
}
