package io.cosid.store.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.cosid.store.Store;
import io.cosid.store.StoreArguments;
import io.cosid.store.StoreConfig;
import io.cosid.store.StoreCorruptedException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The bad-input corpus: every case is refused with an exception that names what was wrong, and the
 * store is left exactly as it was (the API's view, and the raw nodes with their versions where the
 * backend offers tampering). Stored-data cases need tampering and are skipped, visibly, without it.
 */
@DisplayName("Bad input and corrupt state are refused, and change nothing")
public abstract class BadInputContract extends StoreContractSupport {

    static final String NS = "corpus";
    static final String SLOT_OK =
            """
            state=held
            owner=a
            lastOwner=a
            incarnation=1
            fence=1
            ttl=30000
            tolerance=1000
            floor=0
            expiresMin=0
            ceilingMin=0
            nextFloor=0
            nonce=n1
            """;

    /** Creates the subclass. */
    protected BadInputContract() {}

    /** One case: what to plant (if anything), what to call, what must be thrown and named. */
    record Case(
            String name,
            boolean needsTampering,
            Consumer<Tampering> plant,
            Consumer<Store> call,
            Class<? extends Throwable> expected,
            String mentions) {}

    static List<Case> corpus() {
        List<Case> cases = new ArrayList<>();
        argumentCases(cases);
        configurationCases(cases);
        rangeNodeCases(cases);
        slotNodeCases(cases);
        bookkeepingCases(cases);
        return cases;
    }

    /** Arguments the API refuses, each naming what was wrong. */
    @SuppressWarnings("NullAway") // null arguments on purpose: the contract refuses them
    private static void argumentCases(List<Case> cases) {
        for (String key : InvalidArguments.keys()) {
            cases.add(api("range key \"" + key + "\"", s -> s.ranges().acquire(key, 1), "key"));
        }
        for (String ns : InvalidArguments.segments()) {
            cases.add(
                    api(
                            "namespace \"" + ns + "\"",
                            s -> s.slots().define(ns, 2, Duration.ZERO),
                            "namespace"));
        }
        for (String owner : InvalidArguments.segments()) {
            cases.add(
                    api(
                            "owner key \"" + owner + "\"",
                            s -> s.slots().acquire(NS, owner, Duration.ofSeconds(1)),
                            "ownerKey"));
        }
        for (long size : InvalidArguments.sizes()) {
            cases.add(api("size " + size, s -> s.ranges().acquire("k", size), "size"));
        }
        for (Duration ttl : InvalidArguments.ttls()) {
            cases.add(api("ttl " + ttl, s -> s.slots().acquire(NS, "a", ttl), "ttl"));
        }
        for (Duration tolerance : InvalidArguments.tolerances()) {
            cases.add(
                    api(
                            "tolerance " + tolerance,
                            s -> s.slots().define("other", 2, tolerance),
                            "tolerance"));
        }
        for (int limit : InvalidArguments.limits()) {
            cases.add(
                    api(
                            "limit " + limit,
                            s -> s.slots().define("other", limit, Duration.ZERO),
                            "limit"));
        }
        slotArgumentCases(cases);
    }

    /** Slots outside the namespace, negative values and null arguments. */
    @SuppressWarnings("NullAway") // null arguments on purpose: the contract refuses them
    private static void slotArgumentCases(List<Case> cases) {
        for (int slot : new int[] {-1, 4, Integer.MAX_VALUE, Integer.MIN_VALUE}) {
            cases.add(
                    api(
                            "preferred slot " + slot,
                            s -> s.slots().acquire(NS, "a", Duration.ofSeconds(1), slot),
                            "slot"));
            cases.add(
                    api(
                            "advanced slot " + slot,
                            s -> s.slots().advance(NS, slot, 1, Instant.EPOCH),
                            "slot"));
        }
        cases.add(api("advance to a negative value", s -> s.ranges().advance("k", -1), "atLeast"));
        cases.add(
                api(
                        "advance to Long.MIN_VALUE",
                        s -> s.ranges().advance("k", Long.MIN_VALUE),
                        "atLeast"));
        cases.add(
                api(
                        "slot fence -1",
                        s -> s.slots().advance(NS, 0, -1, Instant.EPOCH),
                        "fenceAtLeast"));
        cases.add(api("slot floor null", s -> s.slots().advance(NS, 0, 1, null), "floorAtLeast"));
        cases.add(
                api(
                        "slot floor with nanoseconds",
                        s -> s.slots().advance(NS, 0, 1, Instant.ofEpochSecond(1, 5)),
                        "floorAtLeast"));
        cases.add(api("renew null", s -> s.slots().renew(null), "lease"));
        cases.add(api("release null", s -> s.slots().release(null), "lease"));
    }

    /** Store timeouts configuration refuses, naming the full key. */
    private static void configurationCases(List<Case> cases) {
        for (String timeout : List.of("3", "three seconds", "-1s", "0ms", "2h", "PT", "1.5s")) {
            cases.add(
                    new Case(
                            "store timeout \"" + timeout + "\"",
                            false,
                            t -> {},
                            s ->
                                    StoreConfig.parseAll(
                                            Map.of(
                                                    "cosid.stores.x.type",
                                                    "in-memory",
                                                    "cosid.stores.x.timeout",
                                                    timeout)),
                            IllegalArgumentException.class,
                            "cosid.stores.x.timeout"));
        }
    }

    /** Range nodes whose data is not a counter. */
    private static void rangeNodeCases(List<Case> cases) {
        for (String garbage :
                List.of(
                        "abc",
                        "-5",
                        "99999999999999999999",
                        "9223372036854775808",
                        "12x",
                        "12:sealedx",
                        "12:SEALED",
                        "012",
                        " 12",
                        "+12",
                        "1e3",
                        "12:sealed:sealed",
                        ":sealed",
                        "12\n",
                        "\u0000\u0001\u00ff",
                        "")) {
            cases.add(
                    stored(
                            "range node \"" + garbage + "\"",
                            t -> t.corruptRange("k", garbage),
                            s -> s.ranges().acquire("k", 1),
                            "'k'"));
        }
    }

    /** Slot nodes with a field missing, twice, unknown or out of range. */
    private static void slotNodeCases(List<Case> cases) {
        List<String> slotGarbage =
                new ArrayList<>(List.of("", "garbage", "state=held\n", "\u0000\u0001"));
        for (String field :
                List.of(
                        "state",
                        "owner",
                        "lastOwner",
                        "incarnation",
                        "fence",
                        "ttl",
                        "tolerance",
                        "floor",
                        "expiresMin",
                        "ceilingMin",
                        "nextFloor",
                        "nonce")) {
            slotGarbage.add(SLOT_OK.replaceFirst("(?m)^" + field + "=.*\n", "")); // missing
            slotGarbage.add(
                    SLOT_OK.replaceFirst("(?m)^(" + field + "=.*\n)", "$1$1")); // duplicated
        }
        slotGarbage.addAll(
                List.of(
                        SLOT_OK + "color=red\n",
                        SLOT_OK.replace("state=held", "state=lost"),
                        SLOT_OK.replace("fence=1", "fence=-1"),
                        SLOT_OK.replace("fence=1", "fence=9223372036854775808"),
                        SLOT_OK.replace("ttl=30000", "ttl=0"),
                        SLOT_OK.replace("ttl=30000", "ttl=86400001"),
                        SLOT_OK.replace("tolerance=1000", "tolerance=3600001"),
                        SLOT_OK.replace("owner=a", "owner=b"),
                        SLOT_OK.replace("nonce=n1", "nonce="),
                        SLOT_OK.replace("fence=1", "fence=01"),
                        SLOT_OK.replace("floor=0", "floor=x")));
        for (String garbage : slotGarbage) {
            cases.add(
                    stored(
                            "slot node " + printable(garbage),
                            t -> t.corruptSlot(NS, 0, garbage),
                            s -> s.slots().acquire(NS, "a", Duration.ofSeconds(1)),
                            NS));
        }
    }

    /** Namespace nodes and owner indexes that do not parse. */
    private static void bookkeepingCases(List<Case> cases) {
        for (String garbage :
                List.of(
                        "",
                        "limit=4\n",
                        "limit=0\ntolerance=0\n",
                        "limit=4\ntolerance=-1\n",
                        "limit=70000\ntolerance=0\n",
                        "limit=4\ntolerance=0\ncolor=red\n",
                        "limit=four\ntolerance=0\n",
                        "limit=4\nlimit=4\ntolerance=0\n")) {
            cases.add(
                    stored(
                            "namespace node " + printable(garbage),
                            t -> t.corruptNamespace(NS, garbage),
                            s -> s.slots().acquire(NS, "a", Duration.ofSeconds(1)),
                            NS));
        }
        for (String garbage :
                List.of(
                        "",
                        "slots=a\nnonce=x\n",
                        "slots=1,1\nnonce=x\n",
                        "slots=-1\nnonce=x\n",
                        "slots=0,1,2,3,4,5,6,7,8\nnonce=x\n",
                        "slots=1\n",
                        "slots=1\nnonce=x\nextra=1\n")) {
            cases.add(
                    stored(
                            "owner index " + printable(garbage),
                            t -> t.corruptOwnerIndex(NS, "a", garbage),
                            s -> s.slots().acquire(NS, "a", Duration.ofSeconds(1)),
                            "'a'"));
        }
    }

    private static Case api(String name, Consumer<Store> call, String mentions) {
        return new Case(name, false, t -> {}, call, IllegalArgumentException.class, mentions);
    }

    private static Case stored(
            String name, Consumer<Tampering> plant, Consumer<Store> call, String mentions) {
        return new Case(name, true, plant, call, StoreCorruptedException.class, mentions);
    }

    private static String printable(String s) {
        String shown = s.length() > 40 ? s.substring(0, 40) + "..." : s;
        return "\"" + shown.replace("\n", "\\n").replace("\u0000", "\\0") + "\"";
    }

    @Test
    @DisplayName("the corpus has at least 100 cases")
    void size() {
        assertThat(corpus()).hasSizeGreaterThanOrEqualTo(100);
        assertThat(StoreArguments.MAX_LIMIT).isEqualTo(65_536);
    }

    @TestFactory
    @DisplayName("each case")
    Stream<DynamicTest> corpusCases() {
        // dynamic tests share one @BeforeEach, so each case opens a fixture (an empty backend) of
        // its own
        return corpus().stream()
                .map(
                        c ->
                                DynamicTest.dynamicTest(
                                        c.name(),
                                        () -> {
                                            try (StoreFixture own = createFixture()) {
                                                if (c.needsTampering()) {
                                                    assumeTrue(
                                                            own.tampering().isPresent(),
                                                            "this backend does not let tests tamper"
                                                                    + " with stored data");
                                                }
                                                Store s = own.openStore();
                                                s.slots().define(NS, 4, Duration.ofSeconds(1));
                                                s.ranges().acquire("k", 5);
                                                c.plant().accept(own.tampering().orElse(null));
                                                // a bad argument writes nothing at all; refusing
                                                // corrupt data may leave a clock write behind
                                                boolean full = !c.needsTampering();
                                                Object before = snapshot(own, s, full);
                                                assertThatThrownBy(() -> c.call().accept(s))
                                                        .isInstanceOf(c.expected())
                                                        .hasMessageContaining(c.mentions());
                                                assertThat(snapshot(own, s, full))
                                                        .as("the store is unchanged")
                                                        .isEqualTo(before);
                                            }
                                        }));
    }

    /**
     * Raw nodes with versions where available (corrupt data makes the API view unreadable), else
     * the API view.
     */
    private static Object snapshot(StoreFixture own, Store s, boolean withClocks) {
        if (own.tampering().isPresent()) {
            return withClocks
                    ? own.tampering().get().fullSnapshot()
                    : own.tampering().get().snapshot();
        }
        return List.of(s.ranges().list(), s.slots().namespaces(), s.slots().inspect(NS).slots());
    }
}
