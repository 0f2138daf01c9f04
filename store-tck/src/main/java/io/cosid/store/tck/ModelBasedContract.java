package io.cosid.store.tck;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosid.store.RangeState;
import io.cosid.store.SlotLease;
import io.cosid.store.StoreException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Random;
import java.util.function.Supplier;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Random operation sequences run against the backend and against {@link ReferenceModel}; every
 * time-independent outcome (ranges, states, slots, fences, incarnations, which exception) must
 * agree. A failure names the seed and the step, so it can be replayed.
 */
@DisplayName("Random operation sequences agree with the reference model")
public abstract class ModelBasedContract extends StoreContractSupport {

    private static final Duration TTL = Duration.ofMinutes(30);
    private static final Duration TOLERANCE = Duration.ofMillis(250);
    private static final String[] KEYS = {"a", "b", "a/b"};
    private static final String[] OWNERS = {"o1", "o2", "o3", "o4", "o5", "o6"};
    private static final int STEPS = 300;

    /** Creates the subclass. */
    protected ModelBasedContract() {}

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 20261202, 42})
    @DisplayName("300 random steps on ranges and slots, across two store instances")
    void randomSequence(long seed) {
        Random random = new Random(seed);
        ReferenceModel model = new ReferenceModel();
        List<SlotLease> leases = new ArrayList<>();
        var stores = List.of(store, anotherStore());
        for (int step = 0; step < STEPS; step++) {
            var s = stores.get(random.nextInt(stores.size()));
            String key = KEYS[random.nextInt(KEYS.length)];
            String owner = OWNERS[random.nextInt(OWNERS.length)];
            String ns = random.nextInt(4) == 0 ? "other" : "main";
            String expected;
            String actual;
            String op;
            switch (random.nextInt(9)) {
                case 0, 1 -> {
                    long size =
                            random.nextInt(20) == 0 ? Long.MAX_VALUE / 2 : 1 + random.nextInt(50);
                    op = "acquire(" + key + ", " + size + ")";
                    expected = model.acquireRange(key, size);
                    actual =
                            outcome(
                                    () -> {
                                        var r = s.ranges().acquire(key, size);
                                        return "range " + r.key() + " [" + r.start() + ", "
                                                + r.end() + ")";
                                    });
                }
                case 2 -> {
                    long atLeast = random.nextInt(400);
                    op = "advance(" + key + ", " + atLeast + ")";
                    expected = model.advanceRange(key, atLeast);
                    actual = outcome(() -> "next " + s.ranges().advance(key, atLeast));
                }
                case 3 -> {
                    boolean seal = random.nextInt(8) == 0;
                    op = (seal ? "seal(" : "peek(") + key + ")";
                    expected = seal ? model.sealRange(key) : model.peekRange(key);
                    actual =
                            outcome(
                                    () ->
                                            seal
                                                    ? "sealed at " + s.ranges().seal(key)
                                                    : peek(s.ranges().peek(key)));
                }
                case 4 -> {
                    int limit = 2 + random.nextInt(4);
                    op = "define(" + ns + ", " + limit + ")";
                    expected = model.define(ns, limit);
                    actual =
                            outcome(
                                    () -> {
                                        var n = s.slots().define(ns, limit, TOLERANCE);
                                        return "namespace " + n.name() + " limit " + n.limit();
                                    });
                }
                case 5, 6 -> {
                    OptionalInt preferred =
                            random.nextBoolean()
                                    ? OptionalInt.of(random.nextInt(5))
                                    : OptionalInt.empty();
                    op = "acquire(" + ns + ", " + owner + ", preferred " + preferred + ")";
                    expected = model.acquireSlot(ns, owner, preferred);
                    actual =
                            outcome(
                                    () -> {
                                        SlotLease l =
                                                preferred.isPresent()
                                                        ? s.slots()
                                                                .acquire(
                                                                        ns,
                                                                        owner,
                                                                        TTL,
                                                                        preferred.getAsInt())
                                                        : s.slots().acquire(ns, owner, TTL);
                                        leases.add(l);
                                        return ReferenceModel.lease(
                                                l.slot(), l.ownerKey(), l.fence(), l.incarnation());
                                    });
                }
                case 7 -> {
                    if (leases.isEmpty()) {
                        continue;
                    }
                    SlotLease l = leases.get(random.nextInt(leases.size()));
                    op =
                            "renew("
                                    + l.namespace()
                                    + " slot "
                                    + l.slot()
                                    + " fence "
                                    + l.fence()
                                    + ")";
                    expected =
                            model.renew(
                                    l.namespace(),
                                    l.slot(),
                                    l.ownerKey(),
                                    l.fence(),
                                    l.incarnation());
                    actual =
                            outcome(
                                    () -> {
                                        SlotLease r = s.slots().renew(l);
                                        return ReferenceModel.lease(
                                                r.slot(), r.ownerKey(), r.fence(), r.incarnation());
                                    });
                }
                default -> {
                    if (leases.isEmpty()) {
                        continue;
                    }
                    SlotLease l = leases.get(random.nextInt(leases.size()));
                    op =
                            "release("
                                    + l.namespace()
                                    + " slot "
                                    + l.slot()
                                    + " fence "
                                    + l.fence()
                                    + ")";
                    expected = model.release(l.namespace(), l.slot(), l.ownerKey(), l.fence());
                    actual =
                            outcome(
                                    () -> {
                                        s.slots().release(l);
                                        return "released";
                                    });
                }
            }
            assertThat(actual).as("seed %d, step %d: %s", seed, step, op).isEqualTo(expected);
        }
    }

    private static String peek(Optional<RangeState> state) {
        return state.map(st -> "next " + st.next() + (st.sealed() ? " sealed" : ""))
                .orElse("absent");
    }

    /**
     * The result text, or the simple name of the store's exception (other exceptions fail the
     * test).
     */
    private static String outcome(Supplier<String> call) {
        try {
            return call.get();
        } catch (StoreException | IllegalArgumentException e) {
            return e.getClass().getSimpleName();
        }
    }
}
