package io.cosid.store.zookeeper.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("WriterLine: seats in the order they were taken, with the sizes they declare")
class WriterLineTest {

    private static final String LINE = "/cosid/.line/abc";

    @Test
    @DisplayName("seats are ordered by their sequence numbers, sizes read from their names")
    void order() {
        WriterLine.Order order =
                WriterLine.order(
                        LINE,
                        List.of(
                                "w-s5-b-0000000012",
                                "w-s100-a-0000000010",
                                "w-stalled-0000000011",
                                "something-else"));
        assertThat(order.seats())
                .extracting(WriterLine.Seat::name)
                .containsExactly(
                        "w-s100-a-0000000010", "w-stalled-0000000011", "w-s5-b-0000000012");
        assertThat(order.seats()).extracting(WriterLine.Seat::size).containsExactly(100L, -1L, 5L);
        assertThat(order.seats().get(0).path()).isEqualTo(LINE + "/w-s100-a-0000000010");
    }

    @Test
    @DisplayName("a name that declares no whole positive number declares no size")
    void undeclared() {
        assertThat(WriterLine.declaredSize("w-s12-x-0000000001")).isEqualTo(12);
        assertThat(WriterLine.declaredSize("w-1234abcd-0000000001")).isEqualTo(-1);
        assertThat(WriterLine.declaredSize("w-sx-0000000001")).isEqualTo(-1);
        assertThat(WriterLine.declaredSize("w-s")).isEqualTo(-1);
    }
}
