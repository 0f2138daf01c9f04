package io.cosid.store.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cosid.store.Namespace;
import io.cosid.store.NamespaceConflictException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("NamespaceRules: redefining namespaces and updating owner indexes")
class NamespaceRulesTest {

    private final Namespace current = new Namespace("ns", 8, Duration.ofSeconds(1));

    @Test
    @DisplayName("the same values change nothing; a larger limit raises it")
    void redefine() {
        assertThat(NamespaceRules.redefines(current, current)).isFalse();
        assertThat(NamespaceRules.redefines(current, new Namespace("ns", 9, Duration.ofSeconds(1))))
                .isTrue();
    }

    @Test
    @DisplayName("another tolerance or a smaller limit is refused, naming the rule")
    void conflicts() {
        assertThatThrownBy(
                        () ->
                                NamespaceRules.redefines(
                                        current, new Namespace("ns", 8, Duration.ofSeconds(2))))
                .isInstanceOf(NamespaceConflictException.class)
                .hasMessageContaining("tolerance cannot change");
        assertThatThrownBy(
                        () ->
                                NamespaceRules.redefines(
                                        current, new Namespace("ns", 7, Duration.ofSeconds(1))))
                .isInstanceOf(NamespaceConflictException.class)
                .hasMessageContaining("limit can only be raised");
    }

    @Test
    @DisplayName("a conflict writes tolerances as settings are written (200ms, 1s), not PT0.2S")
    void conflictSaysDurationsAsSettings() {
        assertThatThrownBy(
                        () ->
                                NamespaceRules.redefines(
                                        current, new Namespace("ns", 8, Duration.ofMillis(200))))
                .isInstanceOf(NamespaceConflictException.class)
                .hasMessageContaining("exists with limit 8 and tolerance 1s;")
                .hasMessageContaining("with limit 8 and tolerance 200ms:")
                .hasMessageNotContaining("PT");
    }

    @Test
    @DisplayName(
            "an owner index lists the acquired slot first, then the most recent others, at most 8")
    void ownerIndex() {
        assertThat(NamespaceRules.ownerIndexAfter(3, List.of())).containsExactly(3);
        assertThat(NamespaceRules.ownerIndexAfter(3, List.of(5, 3, 1))).containsExactly(3, 5, 1);
        assertThat(NamespaceRules.ownerIndexAfter(9, List.of(0, 1, 2, 3, 4, 5, 6, 7)))
                .containsExactly(9, 0, 1, 2, 3, 4, 5, 6);
    }
}
