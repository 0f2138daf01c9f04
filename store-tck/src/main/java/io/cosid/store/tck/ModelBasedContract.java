package io.cosid.store.tck;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosid.store.RangeState;
import io.cosid.store.SlotLease;
import io.cosid.store.Store;
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
            Step done =
                    switch (random.nextInt(9)) {
                        case 0, 1 -> acquireRange(random, model, s, key);
                        case 2 -> advanceRange(random, model, s, key);
                        case 3 -> sealOrPeek(random, model, s, key);
                        case 4 -> define(random, model, s, ns);
                        case 5, 6 -> acquireSlot(random, model, s, ns, owner, leases);
                        case 7 -> leases.isEmpty() ? null : renew(random, model, s, leases);
                        default -> leases.isEmpty() ? null : release(random, model, s, leases);
                    };
            if (done != null) {
                assertThat(done.actual())
                        .as("seed %d, step %d: %s", seed, step, done.op())
                        .isEqualTo(done.expected());
            }
        }
    }

    /** One step: the call, what the reference model says, what the store did. */
    private record Step(String op, String expected, String actual) {}

    private static Step acquireRange(Random random, ReferenceModel model, Store s, String key) {
        long size = random.nextInt(20) == 0 ? Long.MAX_VALUE / 2 : 1 + random.nextInt(50);
        return new Step(
                "acquire(" + key + ", " + size + ")",
                model.acquireRange(key, size),
                outcome(
                        () -> {
                            var r = s.ranges().acquire(key, size);
                            return "range " + r.key() + " [" + r.start() + ", " + r.end() + ")";
                        }));
    }

    private static Step advanceRange(Random random, ReferenceModel model, Store s, String key) {
        long atLeast = random.nextInt(400);
        return new Step(
                "advance(" + key + ", " + atLeast + ")",
                model.advanceRange(key, atLeast),
                outcome(() -> "next " + s.ranges().advance(key, atLeast)));
    }

    private static Step sealOrPeek(Random random, ReferenceModel model, Store s, String key) {
        boolean seal = random.nextInt(8) == 0;
        return new Step(
                (seal ? "seal(" : "peek(") + key + ")",
                seal ? model.sealRange(key) : model.peekRange(key),
                outcome(
                        () ->
                                seal
                                        ? "sealed at " + s.ranges().seal(key)
                                        : peek(s.ranges().peek(key))));
    }

    private static Step define(Random random, ReferenceModel model, Store s, String ns) {
        int limit = 2 + random.nextInt(4);
        return new Step(
                "define(" + ns + ", " + limit + ")",
                model.define(ns, limit),
                outcome(
                        () -> {
                            var n = s.slots().define(ns, limit, TOLERANCE);
                            return "namespace " + n.name() + " limit " + n.limit();
                        }));
    }

    private static Step acquireSlot(
            Random random,
            ReferenceModel model,
            Store s,
            String ns,
            String owner,
            List<SlotLease> leases) {
        OptionalInt preferred =
                random.nextBoolean() ? OptionalInt.of(random.nextInt(5)) : OptionalInt.empty();
        return new Step(
                "acquire(" + ns + ", " + owner + ", preferred " + preferred + ")",
                model.acquireSlot(ns, owner, preferred),
                outcome(
                        () -> {
                            SlotLease l =
                                    preferred.isPresent()
                                            ? s.slots()
                                                    .acquire(ns, owner, TTL, preferred.getAsInt())
                                            : s.slots().acquire(ns, owner, TTL);
                            leases.add(l);
                            return ReferenceModel.lease(
                                    l.slot(), l.ownerKey(), l.fence(), l.incarnation());
                        }));
    }

    private static Step renew(
            Random random, ReferenceModel model, Store s, List<SlotLease> leases) {
        SlotLease l = leases.get(random.nextInt(leases.size()));
        return new Step(
                "renew(" + l.namespace() + " slot " + l.slot() + " fence " + l.fence() + ")",
                model.renew(l.namespace(), l.slot(), l.ownerKey(), l.fence(), l.incarnation()),
                outcome(
                        () -> {
                            SlotLease r = s.slots().renew(l);
                            return ReferenceModel.lease(
                                    r.slot(), r.ownerKey(), r.fence(), r.incarnation());
                        }));
    }

    private static Step release(
            Random random, ReferenceModel model, Store s, List<SlotLease> leases) {
        SlotLease l = leases.get(random.nextInt(leases.size()));
        return new Step(
                "release(" + l.namespace() + " slot " + l.slot() + " fence " + l.fence() + ")",
                model.release(l.namespace(), l.slot(), l.ownerKey(), l.fence()),
                outcome(
                        () -> {
                            s.slots().release(l);
                            return "released";
                        }));
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
