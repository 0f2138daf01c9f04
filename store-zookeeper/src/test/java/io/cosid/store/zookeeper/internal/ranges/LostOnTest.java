package io.cosid.store.zookeeper.internal.ranges;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The range room's one reading of the node a lost race names. */
@DisplayName("Where a range write lost its race")
class LostOnTest {

    private static final String LINE = "/cosid/.line/ab12";

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(
            nullValues = "none",
            value = {
                "/cosid/.line/ab12/s-0000000010-5-uuid, SEAT",
                "/cosid/.line/ab12/r-s-0000000010-5-uuid, SEAT",
                "/cosid/.line/ab12, LINE",
                "/cosid/range/orders, KEY",
                "/cosid/.line/ab123, KEY",
                "none, KEY"
            })
    @DisplayName("a seat or result under the line, the line itself, else the key")
    void classified(String failedOn, LostOn expected) {
        assertThat(LostOn.of(failedOn, LINE)).isEqualTo(expected);
    }
}
