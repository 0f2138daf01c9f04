package io.cosid.store.zookeeper.internal.slots;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosid.store.SlotView;
import io.cosid.store.spi.SlotState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * ZooKeeper's {@link SlotData} (lower bounds in the node, times completed by the write's mtime) and
 * spi's {@link SlotState} (absolute times, the in-memory and JDBC backends' rules) go through the
 * same transitions to the same terms: a table of histories, each step compared on fence,
 * incarnation, window, next floor and freedom at the edges of the term.
 */
@DisplayName("ZooKeeper's slot data follows spi's SlotState, transition by transition")
class SlotDataMatchesSlotStateTest {

    private static final Duration TTL = Duration.ofMillis(100);
    private static final Duration TOLERANCE = Duration.ofMillis(10);

    /** One transition at store time {@code at}. */
    private record Step(String what, long at, String owner, long value, long floor) {
        static Step start(String owner, long at) {
            return new Step("start", at, owner, 0, 0);
        }

        static Step renew(long at) {
            return new Step("renew", at, "", 0, 0);
        }

        static Step release(long at, long stampedBefore) {
            return new Step("release", at, "", stampedBefore, 0);
        }

        static Step advance(long at, long fence, long floor) {
            return new Step("advance", at, "", fence, floor);
        }

        @Override
        public String toString() {
            return what + "@" + at;
        }
    }

    /** Both models of one slot, after the same steps. */
    private static final class Both {
        SlotState state = SlotState.NEVER_HELD;
        SlotData data = SlotData.NEVER_HELD;
        long mtime;

        void apply(Step step) {
            Instant t = Instant.ofEpochMilli(step.at());
            switch (step.what()) {
                case "start" -> {
                    state = state.startTerm(step.owner(), t, TTL, TOLERANCE);
                    data = data.startTerm(mtime, step.at(), step.owner(), TTL, TOLERANCE, "n");
                }
                case "renew" -> {
                    state = state.renewedAt(t);
                    data = data.renewed(mtime, "n");
                }
                case "release" -> {
                    state = state.releasedAt(t, Instant.ofEpochMilli(step.value()));
                    data = data.released(mtime, "n", step.value());
                }
                case "advance" -> {
                    Instant floor = Instant.ofEpochMilli(step.floor());
                    state = state.advancedTo(step.value(), floor);
                    data = data.advanced(mtime, step.value(), floor, "n");
                }
                default -> throw new IllegalArgumentException(step.what());
            }
            mtime = step.at(); // the write's own stamp completes the node's times
        }
    }

    static List<List<Step>> histories() {
        return List.of(
                // renewed, released declaring a bound, taken again by the same owner
                List.of(
                        Step.start("a", 1_000),
                        Step.renew(1_050),
                        Step.release(1_080, 1_075),
                        Step.start("a", 1_100)),
                // the store's clock steps back between writes: nothing goes back
                List.of(Step.start("a", 1_000), Step.renew(940), Step.renew(900)),
                // expired, then taken by another owner; a release that declares nothing
                List.of(
                        Step.start("a", 1_000),
                        Step.start("b", 1_200),
                        Step.release(1_250, Long.MAX_VALUE),
                        Step.start("b", 1_300)),
                // advanced past an expired term, and before any term
                List.of(
                        Step.start("a", 1_000),
                        Step.advance(1_500, 10, 5_000),
                        Step.start("b", 1_600),
                        Step.release(1_610, 900)),
                List.of(Step.advance(1_000, 7, 2_000), Step.start("a", 1_100)),
                // a bound declared below the floor, and one above the ceiling
                List.of(
                        Step.start("a", 1_000),
                        Step.release(1_010, 10),
                        Step.start("a", 1_020),
                        Step.release(1_030, 99_999)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("histories")
    @DisplayName("every step gives the same term")
    void sameTerms(List<Step> history) {
        Both both = new Both();
        List<String> seen = new ArrayList<>();
        for (Step step : history) {
            both.apply(step);
            seen.add(step.toString());
            SlotView spi = both.state.toView("ns", 0);
            SlotView zk = both.data.view("ns", 0, both.mtime);
            assertThat(zk)
                    .as("after %s", seen)
                    .usingRecursiveComparison()
                    .comparingOnlyFields(
                            "ownerKey",
                            "fence",
                            "incarnation",
                            "floor",
                            "expiresAt",
                            "ceiling",
                            "nextFloor",
                            "released",
                            "ttl")
                    .isEqualTo(spi);
            if (step.what().equals("release")) {
                assertThat(zk.releasedAt()).as("after %s", seen).isEqualTo(spi.releasedAt());
            }
            for (long now :
                    new long[] {
                        step.at(),
                        spi.expiresAt().toEpochMilli() - 1,
                        spi.expiresAt().toEpochMilli(),
                        spi.ceiling().toEpochMilli()
                    }) {
                assertThat(both.data.isFreeAt(now, both.mtime))
                        .as("free at %d after %s", now, seen)
                        .isEqualTo(both.state.isFreeAt(Instant.ofEpochMilli(now)));
            }
        }
    }
}
