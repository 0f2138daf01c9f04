package io.cosid.store.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cosid.store.Namespace;
import io.cosid.store.NamespaceConflictException;
import io.cosid.store.NamespaceNotFoundException;
import io.cosid.store.NamespaceSnapshot;
import io.cosid.store.SlotLease;
import io.cosid.store.SlotLeaseStore;
import io.cosid.store.SlotView;
import io.cosid.store.SlotsExhaustedException;
import io.cosid.store.Store;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The SlotLeaseStore contract (docs/contract.md, "SlotLeaseStore"). A backend runs it by extending
 * this class and returning its fixture from {@link #createFixture()}. Namespaces, the choice of a
 * slot, arguments and inspection are here; terms ({@code SlotTermsPart}) and races and corrupt data
 * ({@code SlotRacesPart}) are its superclasses, whose groups run as this class's own.
 */
@DisplayName("SlotLeaseStore")
public abstract class SlotLeaseStoreContract extends SlotRacesPart {

    /** Creates the subclass. */
    protected SlotLeaseStoreContract() {}

    static Stream<String> invalidSegments() {
        return InvalidArguments.segments().stream();
    }

    static Stream<Duration> invalidTtls() {
        return InvalidArguments.ttls().stream();
    }

    static Stream<Duration> invalidTolerances() {
        return InvalidArguments.tolerances().stream();
    }

    static Stream<Integer> invalidLimits() {
        return InvalidArguments.limits().stream();
    }

    @Nested
    @DisplayName("namespaces")
    class Namespaces {

        @Test
        @DisplayName("define creates a namespace and is idempotent for the same values")
        void defineIsIdempotent() {
            Namespace created = define(8);
            assertThat(created).isEqualTo(new Namespace(NS, 8, TOLERANCE));
            Object before = observableState();
            assertThat(define(8)).isEqualTo(created);
            assertThat(observableState()).isEqualTo(before);
            assertThat(slots().namespace(NS)).contains(created);
            assertThat(anotherStore().slots().namespaces()).containsExactly(created);
        }

        @Test
        @DisplayName("the limit can be raised; the new slots become available")
        void raiseLimit() {
            define(1);
            acquire("a");
            assertThatThrownBy(() -> acquire("b")).isInstanceOf(SlotsExhaustedException.class);
            assertThat(define(3).limit()).isEqualTo(3);
            assertThat(acquire("b").slot()).isEqualTo(1);
        }

        @Test
        @DisplayName(
                "lowering the limit is refused with the existing and requested values, and nothing"
                        + " is written")
        void lowerLimitRefused() {
            define(8);
            Object before = observableState();
            assertThatThrownBy(() -> define(4))
                    .isInstanceOfSatisfying(
                            NamespaceConflictException.class,
                            e -> {
                                assertThat(e.existing().limit()).isEqualTo(8);
                                assertThat(e.requested().limit()).isEqualTo(4);
                                assertThat(e)
                                        .hasMessageContaining(NS)
                                        .hasMessageContaining("only be raised");
                            });
            assertThat(observableState()).isEqualTo(before);
        }

        @Test
        @DisplayName("changing the tolerance is refused")
        void toleranceCannotChange() {
            define(8);
            assertThatThrownBy(() -> slots().define(NS, 8, TOLERANCE.plusMillis(1)))
                    .isInstanceOf(NamespaceConflictException.class)
                    .hasMessageContaining("tolerance");
            assertThat(slots().namespace(NS)).contains(new Namespace(NS, 8, TOLERANCE));
        }

        @Test
        @DisplayName("an undefined namespace is absent, and using it is an error that names it")
        void undefined() {
            assertThat(slots().namespace("nope")).isEmpty();
            assertThat(slots().namespaces()).isEmpty();
            assertThatThrownBy(() -> slots().acquire("nope", "a", LONG_TTL))
                    .isInstanceOfSatisfying(
                            NamespaceNotFoundException.class,
                            e -> assertThat(e.namespace()).isEqualTo("nope"))
                    .hasMessageContaining("'nope'");
            assertThatThrownBy(() -> slots().inspect("nope"))
                    .isInstanceOf(NamespaceNotFoundException.class);
            assertThatThrownBy(() -> slots().advance("nope", 0, 1, Instant.EPOCH))
                    .isInstanceOf(NamespaceNotFoundException.class);
            assertThat(slots().namespaces()).isEmpty();
        }

        @Test
        @DisplayName("namespaces are listed in name order")
        void listed() {
            slots().define("b", 2, Duration.ZERO);
            slots().define("a", 3, TOLERANCE);
            assertThat(slots().namespaces()).extracting(Namespace::name).containsExactly("a", "b");
        }
    }

    @Nested
    @DisplayName("choosing a slot")
    class Choosing {

        @Test
        @DisplayName("the first term of a slot has fence 1, incarnation 1 and floor at the epoch")
        void firstTerm() {
            define(4);
            Instant before = fixture.storeNow();
            SlotLease lease = acquire("a");
            assertThat(lease.namespace()).isEqualTo(NS);
            assertThat(lease.slot()).isZero();
            assertThat(lease.ownerKey()).isEqualTo("a");
            assertThat(lease.fence()).isEqualTo(1);
            assertThat(lease.incarnation()).isEqualTo(1);
            assertThat(lease.floor()).isEqualTo(Instant.EPOCH);
            assertThat(lease.ttl()).isEqualTo(LONG_TTL);
            assertThat(lease.tolerance()).isEqualTo(TOLERANCE);
            assertThat(lease.expiresAt()).isAfterOrEqualTo(before.plus(LONG_TTL));
            assertThat(lease.ceiling()).isEqualTo(lease.expiresAt().plus(TOLERANCE));
        }

        @Test
        @DisplayName("new owners get the lowest-numbered free slot")
        void lowestFree() {
            define(4);
            assertThat(acquire("a").slot()).isEqualTo(0);
            SlotLease b = acquire("b");
            assertThat(b.slot()).isEqualTo(1);
            assertThat(acquire("c").slot()).isEqualTo(2);
            slots().release(b);
            assertThat(acquire("d").slot()).isEqualTo(1);
            assertThat(acquire("e").slot()).isEqualTo(3);
        }

        @Test
        @DisplayName("a preferred slot is taken when free, else the lowest free slot")
        void preferred() {
            define(8);
            assertThat(slots().acquire(NS, "a", LONG_TTL, 5).slot()).isEqualTo(5);
            assertThat(slots().acquire(NS, "b", LONG_TTL, 5).slot()).isEqualTo(0);
            assertThat(slots().acquire(NS, "c", LONG_TTL, 7).slot()).isEqualTo(7);
        }

        @Test
        @DisplayName("a preferred slot outside the namespace is refused, naming the allowed slots")
        void preferredOutside() {
            define(4);
            Object before = observableState();
            assertThatThrownBy(() -> slots().acquire(NS, "a", LONG_TTL, 4))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("0..3");
            assertThatThrownBy(() -> slots().acquire(NS, "a", LONG_TTL, -1))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThat(observableState()).isEqualTo(before);
        }

        @Test
        @DisplayName(
                "no free slot: SlotsExhaustedException naming the namespace, and nothing is"
                        + " written")
        void exhausted() {
            define(2);
            acquire("a");
            acquire("b");
            Object before = observableState();
            assertThatThrownBy(() -> acquire("c"))
                    .isInstanceOfSatisfying(
                            SlotsExhaustedException.class,
                            e -> {
                                assertThat(e.namespace()).isEqualTo(NS);
                                assertThat(e.limit()).isEqualTo(2);
                            });
            assertThatThrownBy(() -> slots().acquire(NS, "c", LONG_TTL, 1))
                    .isInstanceOf(SlotsExhaustedException.class);
            assertThat(observableState()).isEqualTo(before);
        }
    }

    @Nested
    @DisplayName("the owner index")
    class OwnerIndex {

        @Test
        @DisplayName("gives a restarted owner its last slot back, with incarnation + 1")
        void stickyAfterRelease() {
            define(4);
            SlotLease a = acquire("a");
            SlotLease b = acquire("b");
            slots().release(a);
            slots().release(b);
            SlotLease again = acquire("b");
            assertThat(again.slot()).isEqualTo(b.slot());
            assertThat(again.incarnation()).isEqualTo(2);
            assertThat(again.fence()).isEqualTo(b.fence() + 1);
        }

        @Test
        @DisplayName("lists the most recently acquired slot first")
        void mostRecentFirst() {
            define(4);
            SlotLease first = acquire("a");
            SlotLease second = acquire("a");
            assertThat(List.of(first.slot(), second.slot())).containsExactly(0, 1);
            slots().release(first);
            slots().release(second);
            assertThat(acquire("a").slot()).isEqualTo(1);
            assertThat(acquire("a").slot()).isEqualTo(0);
        }

        @Test
        @DisplayName("comes before the preferred slot")
        void beforePreferred() {
            define(8);
            SlotLease a = slots().acquire(NS, "a", LONG_TTL, 3);
            slots().release(a);
            assertThat(slots().acquire(NS, "a", LONG_TTL, 6).slot()).isEqualTo(3);
        }

        @Test
        @DisplayName(
                "a slot the owner had that another owner now holds is skipped, and the newcomer's"
                        + " incarnation is 1")
        void takenSlotSkipped() {
            define(4);
            SlotLease a = acquire("a");
            slots().release(a);
            SlotLease b = acquire("b");
            assertThat(b.slot()).isEqualTo(a.slot());
            assertThat(b.incarnation()).isEqualTo(1);
            SlotLease a2 = acquire("a");
            assertThat(a2.slot()).isEqualTo(1);
            assertThat(a2.incarnation()).isEqualTo(1);
        }

        @Test
        @DisplayName(
                "gives a slot back after its lease expired, to the same owner, with incarnation +"
                        + " 1")
        void stickyAfterExpiry() {
            define(4);
            SlotLease a = slots().acquire(NS, "a", expiringTtl());
            acquire("b");
            passStoreTime(expiringTtl().plusMillis(1));
            SlotLease again = slots().acquire(NS, "a", LONG_TTL);
            assertThat(again.slot()).isEqualTo(a.slot());
            assertThat(again.incarnation()).isEqualTo(2);
            assertThat(again.floor()).isAfterOrEqualTo(a.ceiling());
        }
    }

    @Nested
    @DisplayName("arguments")
    class Arguments {

        @ParameterizedTest(name = "namespace \"{0}\"")
        @MethodSource("io.cosid.store.tck.SlotLeaseStoreContract#invalidSegments")
        @DisplayName("an invalid namespace is refused, naming the rule, and nothing is written")
        void invalidNamespace(String ns) {
            define(2);
            Object before = observableState();
            assertThatThrownBy(() -> slots().define(ns, 2, TOLERANCE))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("namespace")
                    .hasMessageContaining("one segment");
            assertThatThrownBy(() -> slots().acquire(ns, "a", LONG_TTL))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> slots().inspect(ns))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> slots().namespace(ns))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThat(observableState()).isEqualTo(before);
        }

        @ParameterizedTest(name = "owner key \"{0}\"")
        @MethodSource("io.cosid.store.tck.SlotLeaseStoreContract#invalidSegments")
        @DisplayName("an invalid owner key is refused, naming the rule, and nothing is written")
        void invalidOwner(String owner) {
            define(2);
            Object before = observableState();
            assertThatThrownBy(() -> slots().acquire(NS, owner, LONG_TTL))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("ownerKey");
            assertThat(observableState()).isEqualTo(before);
        }

        @ParameterizedTest(name = "ttl {0}")
        @MethodSource("io.cosid.store.tck.SlotLeaseStoreContract#invalidTtls")
        @DisplayName(
                "a ttl outside 1ms..1d or not whole milliseconds is refused, and nothing is"
                        + " written")
        void invalidTtl(Duration ttl) {
            define(2);
            Object before = observableState();
            assertThatThrownBy(() -> slots().acquire(NS, "a", ttl))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("ttl");
            assertThat(observableState()).isEqualTo(before);
        }

        @ParameterizedTest(name = "tolerance {0}")
        @MethodSource("io.cosid.store.tck.SlotLeaseStoreContract#invalidTolerances")
        @DisplayName("a tolerance outside 0..1h or not whole milliseconds is refused")
        void invalidTolerance(Duration tolerance) {
            assertThatThrownBy(() -> slots().define(NS, 2, tolerance))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("tolerance");
            assertThat(slots().namespaces()).isEmpty();
        }

        @ParameterizedTest(name = "limit {0}")
        @MethodSource("io.cosid.store.tck.SlotLeaseStoreContract#invalidLimits")
        @DisplayName("a limit outside 1..65536 is refused")
        void invalidLimit(int limit) {
            assertThatThrownBy(() -> slots().define(NS, limit, TOLERANCE))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("limit must be between 1 and 65536");
            assertThat(slots().namespaces()).isEmpty();
        }

        @Test
        @DisplayName("null ttl, tolerance and lease are refused")
        @SuppressWarnings("NullAway") // null on purpose: the contract refuses it
        void nulls() {
            define(2);
            assertThatThrownBy(() -> slots().acquire(NS, "a", null))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> slots().define("x", 2, null))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> slots().renew(null))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> slots().release(null))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Nested
    @DisplayName("after close")
    class AfterClose {

        @Test
        @DisplayName("every operation throws IllegalStateException")
        void refusesEverything() {
            define(2);
            SlotLease lease = acquire("a");
            Store closing = anotherStore();
            closing.close();
            SlotLeaseStore closed = closing.slots();
            assertThatThrownBy(() -> closed.define(NS, 2, TOLERANCE))
                    .isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> closed.namespace(NS))
                    .isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(closed::namespaces).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> closed.acquire(NS, "b", LONG_TTL))
                    .isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> closed.acquire(NS, "b", LONG_TTL, 1))
                    .isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> closed.renew(lease)).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> closed.release(lease))
                    .isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> closed.advance(NS, 1, 1, Instant.EPOCH))
                    .isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> closed.inspect(NS)).isInstanceOf(IllegalStateException.class);
            assertThat(slots().renew(lease).fence()).isEqualTo(lease.fence());
        }
    }

    @Nested
    @DisplayName("inspection")
    class Inspection {

        @Test
        @DisplayName(
                "shows each used slot's holder, fence, incarnation, window and next floor, with the"
                        + " store's now")
        void showsSlots() {
            define(4);
            SlotLease a = acquire("a");
            SlotLease b = acquire("b");
            Instant beforeRelease = fixture.storeNow();
            slots().release(b);
            Instant before = fixture.storeNow();
            NamespaceSnapshot snapshot = slots().inspect(NS);
            assertThat(snapshot.namespace()).isEqualTo(new Namespace(NS, 4, TOLERANCE));
            assertThat(snapshot.now()).isAfterOrEqualTo(before);
            assertThat(snapshot.slots()).extracting(SlotView::slot).containsExactly(0, 1);
            SlotView held = snapshot.slots().get(0);
            assertThat(held.holderAt(snapshot.now())).contains("a");
            assertThat(held.fence()).isEqualTo(a.fence());
            assertThat(held.incarnation()).isEqualTo(a.incarnation());
            assertThat(held.floor()).isEqualTo(a.floor());
            assertThat(held.expiresAt()).isEqualTo(a.expiresAt());
            assertThat(held.ceiling()).isEqualTo(a.ceiling());
            assertThat(held.nextFloor()).isEqualTo(a.ceiling());
            SlotView released = snapshot.slots().get(1);
            assertThat(released.released()).isTrue();
            assertThat(released.holderAt(snapshot.now())).isEmpty();
            assertThat(released.ownerKey()).isEqualTo("b");
            assertThat(released.releasedAt()).isBetween(beforeRelease, snapshot.now());
            assertThat(released.freeSince(snapshot.now())).contains(released.releasedAt());
            assertThat(held.freeSince(snapshot.now())).isEmpty();
            assertThat(snapshot.held()).containsExactly(held);
        }
    }
}
