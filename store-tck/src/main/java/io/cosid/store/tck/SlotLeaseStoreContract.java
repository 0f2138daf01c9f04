package io.cosid.store.tck;

import static java.time.temporal.ChronoUnit.MILLIS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cosid.store.LeaseGuard;
import io.cosid.store.LeaseLostException;
import io.cosid.store.Namespace;
import io.cosid.store.NamespaceConflictException;
import io.cosid.store.NamespaceNotFoundException;
import io.cosid.store.NamespaceSnapshot;
import io.cosid.store.SlotBusyException;
import io.cosid.store.SlotLease;
import io.cosid.store.SlotLeaseStore;
import io.cosid.store.SlotView;
import io.cosid.store.SlotsExhaustedException;
import io.cosid.store.Store;
import io.cosid.store.StoreCorruptedException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The SlotLeaseStore contract (docs/contract.md, "SlotLeaseStore"). A backend runs it by extending
 * this class and returning its fixture from {@link #createFixture()}.
 */
@DisplayName("SlotLeaseStore")
public abstract class SlotLeaseStoreContract extends StoreContractSupport {

    /** A ttl no test outlives, for leases that must not expire during a test. */
    static final Duration LONG_TTL = Duration.ofMinutes(10);

    static final Duration TOLERANCE = Duration.ofSeconds(2);
    static final String NS = "workers";

    /** Creates the subclass. */
    protected SlotLeaseStoreContract() {}

    private SlotLeaseStore slots() {
        return store.slots();
    }

    private Namespace define(int limit) {
        return slots().define(NS, limit, TOLERANCE);
    }

    private SlotLease acquire(String owner) {
        return slots().acquire(NS, owner, LONG_TTL);
    }

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
    @DisplayName("renew")
    class Renew {

        @Test
        @DisplayName(
                "extends the same term: same fence, floor and incarnation, expiresAt from the"
                        + " store's now")
        void extendsTerm() {
            define(2);
            SlotLease lease = acquire("a");
            passStoreTime(Duration.ofMillis(50));
            Instant before = fixture.storeNow();
            SlotLease renewed = slots().renew(lease);
            assertThat(renewed.fence()).isEqualTo(lease.fence());
            assertThat(renewed.floor()).isEqualTo(lease.floor());
            assertThat(renewed.incarnation()).isEqualTo(lease.incarnation());
            assertThat(renewed.slot()).isEqualTo(lease.slot());
            assertThat(renewed.expiresAt())
                    .isAfterOrEqualTo(before.plus(LONG_TTL))
                    .isAfter(lease.expiresAt());
            assertThat(renewed.ceiling()).isEqualTo(renewed.expiresAt().plus(TOLERANCE));
            assertThat(slots().renew(renewed).fence()).isEqualTo(lease.fence());
        }

        @Test
        @DisplayName("succeeds after expiresAt while nobody took the slot")
        void afterExpiryIfUntaken() {
            define(2);
            SlotLease lease = slots().acquire(NS, "a", expiringTtl());
            passStoreTime(expiringTtl().plusMillis(1));
            SlotLease renewed = slots().renew(lease);
            assertThat(renewed.fence()).isEqualTo(lease.fence());
            assertThat(renewed.expiresAt()).isAfter(lease.expiresAt());
        }

        @Test
        @DisplayName("of a released lease is refused with LeaseLostException")
        void released() {
            define(2);
            SlotLease lease = acquire("a");
            slots().release(lease);
            assertThatThrownBy(() -> slots().renew(lease))
                    .isInstanceOfSatisfying(
                            LeaseLostException.class,
                            e -> {
                                assertThat(e.namespace()).isEqualTo(NS);
                                assertThat(e.slot()).isEqualTo(lease.slot());
                                assertThat(e.fence()).isEqualTo(lease.fence());
                            });
        }
    }

    @Nested
    @DisplayName("release")
    class Release {

        @Test
        @DisplayName(
                "frees the slot at once; declaring nothing keeps the whole window used: the next"
                        + " floor is the ceiling")
        void freesAtOnce() {
            define(1);
            SlotLease a = acquire("a");
            Instant windowEnd = slots().release(a);
            SlotLease b = acquire("b");
            assertThat(windowEnd)
                    .as("the store cannot know what was stamped")
                    .isEqualTo(a.ceiling());
            assertThat(b.floor())
                    .as("the next term starts where release said the window ends")
                    .isEqualTo(windowEnd);
            assertThat(b.slot()).isEqualTo(a.slot());
            assertThat(b.fence()).isEqualTo(a.fence() + 1);
            assertThat(b.incarnation()).isEqualTo(1);
        }

        @Test
        @DisplayName(
                "with stampedBefore declared, the next floor is max(floor, min(ceiling,"
                        + " stampedBefore))")
        void declaredBound() {
            define(3);
            SlotLease a = acquire("a");
            Instant inside =
                    a.floor()
                            .plus(Duration.between(a.floor(), a.ceiling()).dividedBy(2))
                            .truncatedTo(MILLIS);
            assertThat(slots().release(a, inside)).isEqualTo(inside);
            assertThat(slots().acquire(NS, "b", LONG_TTL, a.slot()).floor()).isEqualTo(inside);

            SlotLease c = slots().acquire(NS, "c", LONG_TTL, 1);
            assertThat(slots().release(c, Instant.EPOCH))
                    .as("never below the floor")
                    .isEqualTo(c.floor());
            SlotLease d = slots().acquire(NS, "d", LONG_TTL, 2);
            assertThat(slots().release(d, d.ceiling().plus(Duration.ofDays(1))))
                    .as("never above the ceiling")
                    .isEqualTo(d.ceiling());
        }

        @Test
        @DisplayName(
                "through a LeaseGuard declares the highest timestamp it allowed, and the guard"
                        + " stops allowing any")
        void throughGuard() {
            define(1);
            LeaseGuard guard = LeaseGuard.acquire(slots(), NS, "a", LONG_TTL);
            SlotLease a = guard.lease();
            Instant stamped = a.floor().plusMillis(1234);
            assertThat(guard.mayStamp(a.floor())).isTrue();
            assertThat(guard.mayStamp(stamped)).isTrue();
            LeaseGuard renewed = guard.renew(slots());
            assertThat(renewed.mayStamp(stamped.minusMillis(3))).isTrue();
            Instant windowEnd = renewed.release(slots());
            assertThat(windowEnd).isEqualTo(stamped.plusMillis(1));
            assertThat(guard.mayStamp(a.floor())).isFalse();
            assertThat(renewed.mayStamp(a.floor())).isFalse();
            assertThat(acquire("b").floor()).isEqualTo(windowEnd);
        }

        @Test
        @DisplayName(
                "refuses a stampedBefore that is null, finer than milliseconds or before the epoch,"
                        + " and writes nothing")
        void invalidDeclaration() {
            define(1);
            SlotLease a = acquire("a");
            Object before = observableState();
            for (Instant bad :
                    new Instant[] {null, a.floor().plusNanos(5), Instant.EPOCH.minusMillis(1)}) {
                assertThatThrownBy(() -> slots().release(a, bad))
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining("stampedBefore");
            }
            assertThat(observableState()).isEqualTo(before);
        }

        @Test
        @DisplayName("is idempotent while the fence is current")
        void idempotent() {
            define(1);
            SlotLease a = acquire("a");
            Instant windowEnd = slots().release(a);
            Object before = observableState();
            assertThat(slots().release(a)).isEqualTo(windowEnd);
            assertThat(observableState()).isEqualTo(before);
        }

        @Test
        @DisplayName("of a stale lease is refused with LeaseLostException and writes nothing")
        void stale() {
            define(1);
            SlotLease a = acquire("a");
            slots().release(a);
            SlotLease b = acquire("b");
            Object before = observableState();
            assertThatThrownBy(() -> slots().release(a)).isInstanceOf(LeaseLostException.class);
            assertThatThrownBy(() -> slots().renew(a)).isInstanceOf(LeaseLostException.class);
            assertThat(observableState()).isEqualTo(before);
            assertThat(slots().renew(b).fence()).isEqualTo(b.fence());
        }
    }

    @Nested
    @DisplayName("expiry and takeover")
    class Expiry {

        @Test
        @DisplayName("an unexpired slot is never taken")
        void unexpiredNotTaken() {
            define(1);
            SlotLease a = slots().acquire(NS, "a", Duration.ofSeconds(30));
            ManualClock clock = fixture.manualClock().orElse(null);
            if (clock != null) {
                clock.set(a.expiresAt().minusMillis(1));
            }
            assertThatThrownBy(() -> acquire("b")).isInstanceOf(SlotsExhaustedException.class);
        }

        @Test
        @DisplayName(
                "an expired slot is taken over with a larger fence and floor >= the old ceiling")
        void takeover() {
            define(1);
            SlotLease a = slots().acquire(NS, "a", expiringTtl());
            passStoreTime(expiringTtl().plusMillis(1));
            SlotLease b = acquire("b");
            assertThat(b.slot()).isEqualTo(a.slot());
            assertThat(b.fence()).isGreaterThan(a.fence());
            assertThat(b.floor()).isAfterOrEqualTo(a.ceiling());
            assertThat(b.incarnation()).isEqualTo(1);
            fixture.manualClock().ifPresent(clock -> assertThat(b.floor()).isEqualTo(a.ceiling()));
        }

        @Test
        @DisplayName(
                "the old holder can neither renew nor release after a takeover, and nothing is"
                        + " written")
        void oldHolderLocked() {
            define(1);
            SlotLease a = slots().acquire(NS, "a", expiringTtl());
            passStoreTime(expiringTtl().plusMillis(1));
            SlotLease b = acquire("b");
            Object before = observableState();
            assertThatThrownBy(() -> slots().renew(a))
                    .isInstanceOf(LeaseLostException.class)
                    .hasMessageContaining("fence " + b.fence());
            assertThatThrownBy(() -> slots().release(a)).isInstanceOf(LeaseLostException.class);
            assertThat(observableState()).isEqualTo(before);
        }
    }

    @Nested
    @DisplayName("the store's clock stepping back")
    class ClockStepsBack {

        @Test
        @DisplayName("renew never lowers expiresAt or ceiling within a term")
        void renewKeepsBounds() {
            ManualClock clock = manualClock();
            define(1);
            SlotLease lease = acquire("a");
            clock.stepBack(Duration.ofMinutes(5));
            SlotLease renewed = slots().renew(lease);
            assertThat(renewed.expiresAt()).isEqualTo(lease.expiresAt());
            assertThat(renewed.ceiling()).isEqualTo(lease.ceiling());
            clock.advance(Duration.ofMinutes(6));
            assertThat(slots().renew(renewed).expiresAt()).isAfter(lease.expiresAt());
        }

        @Test
        @DisplayName(
                "a held slot stays held, and a takeover still starts at or after the old ceiling")
        void takeoverAfterStepBack() {
            ManualClock clock = manualClock();
            define(1);
            SlotLease a = slots().acquire(NS, "a", Duration.ofSeconds(10));
            clock.advance(Duration.ofSeconds(11));
            clock.stepBack(Duration.ofSeconds(5));
            assertThatThrownBy(() -> acquire("b")).isInstanceOf(SlotsExhaustedException.class);
            clock.advance(Duration.ofSeconds(5));
            SlotLease b = acquire("b");
            assertThat(b.floor()).isAfterOrEqualTo(a.ceiling());
            assertThat(b.fence()).isGreaterThan(a.fence());
        }

        @Test
        @DisplayName(
                "a release under a stepped-back clock never puts the next floor below a timestamp"
                        + " the holder used")
        void releaseAfterStepBack() {
            ManualClock clock = manualClock();
            define(2);
            // both holders stamp 3 s into their terms, then the store's clock steps back 2 minutes
            LeaseGuard declaring = LeaseGuard.acquire(slots(), NS, "a", Duration.ofSeconds(20));
            SlotLease plain = slots().acquire(NS, "b", Duration.ofSeconds(20));
            clock.advance(Duration.ofSeconds(3));
            Instant stamped = fixture.storeNow();
            assertThat(declaring.mayStamp(stamped)).isTrue();
            clock.stepBack(Duration.ofMinutes(2));
            Instant declaredEnd = declaring.release(slots());
            Instant plainEnd = slots().release(plain);
            assertThat(declaredEnd).isAfter(stamped);
            assertThat(plainEnd).isEqualTo(plain.ceiling());
            SlotLease next =
                    slots().acquire(NS, "c", Duration.ofSeconds(20), declaring.lease().slot());
            assertThat(next.floor()).isEqualTo(declaredEnd);
            assertThat(next.ceiling()).isAfterOrEqualTo(next.floor());
            assertThat(slots().acquire(NS, "d", Duration.ofSeconds(20), plain.slot()).floor())
                    .isEqualTo(plain.ceiling());
        }
    }

    @Nested
    @DisplayName("advance")
    class Advance {

        @Test
        @DisplayName("raises a free slot's fence and next floor; the next term starts above both")
        void raises() {
            define(4);
            Instant floor = Instant.parse("2030-01-01T00:00:00Z");
            SlotView view = slots().advance(NS, 2, 41, floor);
            assertThat(view.fence()).isEqualTo(41);
            assertThat(view.nextFloor()).isEqualTo(floor);
            assertThat(view.isHeldAt(fixture.storeNow())).isFalse();
            SlotLease lease = slots().acquire(NS, "a", LONG_TTL, 2);
            assertThat(lease.slot()).isEqualTo(2);
            assertThat(lease.fence()).isEqualTo(42);
            assertThat(lease.floor()).isEqualTo(floor);
            assertThat(lease.ceiling()).isAfterOrEqualTo(floor);
        }

        @Test
        @DisplayName("never lowers: lower values are a no-op that writes nothing")
        void neverLowers() {
            define(4);
            SlotLease a = acquire("a");
            slots().release(a);
            Object before = observableState();
            SlotView view = slots().advance(NS, 0, 0, Instant.EPOCH);
            assertThat(view.fence()).isEqualTo(a.fence());
            assertThat(observableState()).isEqualTo(before);
        }

        @Test
        @DisplayName("refuses to change a held slot, naming its holder, and writes nothing")
        void heldRefused() {
            define(4);
            SlotLease a = acquire("a");
            Object before = observableState();
            assertThatThrownBy(() -> slots().advance(NS, a.slot(), a.fence() + 10, Instant.EPOCH))
                    .isInstanceOfSatisfying(
                            SlotBusyException.class,
                            e -> {
                                assertThat(e.holder()).isEqualTo("a");
                                assertThat(e.slot()).isEqualTo(a.slot());
                            });
            assertThat(observableState()).isEqualTo(before);
            assertThat(slots().renew(a).fence()).isEqualTo(a.fence());
        }

        @Test
        @DisplayName("ends an expired term it writes to: its holder can no longer renew")
        void endsExpiredTerm() {
            define(1);
            SlotLease a = slots().acquire(NS, "a", expiringTtl());
            passStoreTime(expiringTtl().plusMillis(1));
            Instant floor = a.ceiling().plusSeconds(60);
            SlotView view = slots().advance(NS, 0, a.fence(), floor);
            assertThat(view.fence()).isEqualTo(a.fence());
            assertThat(view.nextFloor()).isEqualTo(floor);
            assertThatThrownBy(() -> slots().renew(a)).isInstanceOf(LeaseLostException.class);
            SlotLease b = acquire("b");
            assertThat(b.fence()).isEqualTo(a.fence() + 1);
            assertThat(b.floor()).isEqualTo(floor);
        }

        @Test
        @DisplayName("keeps the next floor at or above an expired term's ceiling")
        void keepsExpiredCeiling() {
            define(1);
            SlotLease a = slots().acquire(NS, "a", expiringTtl());
            passStoreTime(expiringTtl().plusMillis(1));
            SlotView view = slots().advance(NS, 0, a.fence() + 5, Instant.EPOCH);
            assertThat(view.nextFloor()).isEqualTo(a.ceiling());
            assertThat(acquire("b").floor()).isEqualTo(a.ceiling());
        }

        @Test
        @DisplayName("refuses a slot outside the namespace and a negative fence")
        @SuppressWarnings("NullAway") // null on purpose: the contract refuses it
        void badArguments() {
            define(4);
            assertThatThrownBy(() -> slots().advance(NS, 4, 1, Instant.EPOCH))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("0..3");
            assertThatThrownBy(() -> slots().advance(NS, 0, -1, Instant.EPOCH))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("fenceAtLeast");
            assertThatThrownBy(() -> slots().advance(NS, 0, 1, null))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("floorAtLeast");
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

    @Nested
    @DisplayName("concurrency")
    class Concurrency {

        @Test
        @DisplayName(
                "33 owners racing for a 32-slot namespace get 32 distinct slots; exactly one is"
                        + " refused")
        void race() throws Exception {
            define(32);
            int owners = 33;
            HistoryRecorder recorder = new HistoryRecorder();
            List<Store> stores = new ArrayList<>();
            for (int i = 0; i < owners; i++) {
                stores.add(anotherStore());
            }
            ExecutorService pool = Executors.newFixedThreadPool(owners);
            CountDownLatch start = new CountDownLatch(1);
            AtomicInteger refused = new AtomicInteger();
            try {
                List<Future<Optional<SlotLease>>> results = new ArrayList<>();
                for (int i = 0; i < owners; i++) {
                    Store s = stores.get(i);
                    String owner = "owner-" + i;
                    results.add(
                            pool.submit(
                                    () -> {
                                        start.await();
                                        try {
                                            return Optional.of(
                                                    recorder.acquire(
                                                            s.slots(), NS, owner, LONG_TTL, 32));
                                        } catch (SlotsExhaustedException e) {
                                            refused.incrementAndGet();
                                            return Optional.<SlotLease>empty();
                                        }
                                    }));
                }
                start.countDown();
                List<SlotLease> leases = new ArrayList<>();
                for (Future<Optional<SlotLease>> f : results) {
                    f.get(60, TimeUnit.SECONDS).ifPresent(leases::add);
                }
                assertThat(refused).hasValue(1);
                Set<Integer> distinct =
                        leases.stream().map(SlotLease::slot).collect(Collectors.toSet());
                assertThat(distinct).hasSize(32).allMatch(s -> s >= 0 && s < 32);
                HistoryChecker.check(recorder.events()).assertValid();
            } finally {
                pool.shutdownNow();
            }
        }

        @Test
        @DisplayName(
                "owners churning through acquire, renew, release and expiry never overlap (history"
                        + " check)")
        void churn() throws Exception {
            define(4);
            Duration ttl = expiringTtl();
            boolean manual = fixture.manualClock().isPresent();
            HistoryRecorder recorder = new HistoryRecorder();
            int clients = 8;
            ExecutorService pool = Executors.newFixedThreadPool(clients);
            try {
                List<Future<?>> results = new ArrayList<>();
                for (int c = 0; c < clients; c++) {
                    Store s = anotherStore();
                    String owner = "churn-" + c;
                    results.add(
                            pool.submit(
                                    () -> {
                                        ThreadLocalRandom random = ThreadLocalRandom.current();
                                        SlotLease lease = null;
                                        for (int i = 0; i < (manual ? 300 : 40); i++) {
                                            try {
                                                int op = random.nextInt(10);
                                                if (op == 9) {
                                                    if (manual) {
                                                        fixture.manualClock()
                                                                .get()
                                                                .advance(ttl.dividedBy(3));
                                                    } else {
                                                        passStoreTime(ttl.dividedBy(4));
                                                    }
                                                } else if (lease == null) {
                                                    lease =
                                                            recorder.acquire(
                                                                    s.slots(), NS, owner, ttl, 4);
                                                } else if (op < 5) {
                                                    lease = recorder.renew(s.slots(), lease);
                                                } else if (op < 7) {
                                                    recorder.release(s.slots(), lease);
                                                    lease = null;
                                                } else {
                                                    lease = null; // walk away without releasing:
                                                    // the lease expires
                                                }
                                            } catch (SlotsExhaustedException
                                                    | LeaseLostException e) {
                                                lease = null;
                                            }
                                        }
                                        return null;
                                    }));
                }
                for (Future<?> f : results) {
                    f.get(120, TimeUnit.SECONDS);
                }
                HistoryChecker.Report report =
                        HistoryChecker.check(recorder.events()).assertValid();
                assertThat(report.terms()).isGreaterThan(4);
            } finally {
                pool.shutdownNow();
            }
        }
    }

    @Nested
    @DisplayName("corrupt data")
    class CorruptData {

        @Test
        @DisplayName("a corrupt slot is reported when an acquire must read it, and left untouched")
        void corruptSlot() {
            Tampering tampering = tampering();
            define(4);
            tampering.corruptSlot(NS, 0, "fence=banana");
            Object before = tampering.snapshot();
            assertThatThrownBy(() -> acquire("a"))
                    .isInstanceOf(StoreCorruptedException.class)
                    .hasMessageContaining(NS);
            assertThatThrownBy(() -> slots().inspect(NS))
                    .isInstanceOf(StoreCorruptedException.class);
            assertThat(tampering.snapshot()).isEqualTo(before);
        }

        @Test
        @DisplayName(
                "a held slot that turns corrupt refuses renew and release and is left untouched")
        void corruptHeldSlot() {
            Tampering tampering = tampering();
            define(4);
            SlotLease lease = acquire("a");
            tampering.corruptSlot(NS, lease.slot(), "\u0000\u0001");
            Object before = tampering.snapshot();
            assertThatThrownBy(() -> slots().renew(lease))
                    .isInstanceOf(StoreCorruptedException.class);
            assertThatThrownBy(() -> slots().release(lease))
                    .isInstanceOf(StoreCorruptedException.class);
            assertThat(tampering.snapshot()).isEqualTo(before);
        }

        @Test
        @DisplayName(
                "a slot deleted behind the store's back is refused by renew, release and acquire,"
                        + " never recreated")
        void deletedSlot() {
            Tampering tampering = tampering();
            define(1);
            SlotLease lease = acquire("a");
            tampering.deleteSlot(NS, lease.slot());
            Object before = tampering.snapshot();
            assertThatThrownBy(() -> slots().renew(lease))
                    .isInstanceOf(StoreCorruptedException.class)
                    .hasMessageContaining("deleted")
                    .hasMessageContaining("fence " + (lease.fence() + 1));
            assertThatThrownBy(() -> slots().release(lease))
                    .isInstanceOf(StoreCorruptedException.class);
            assertThatThrownBy(() -> acquire("b"))
                    .isInstanceOf(StoreCorruptedException.class)
                    .hasMessageContaining("slot " + lease.slot());
            assertThat(tampering.snapshot()).isEqualTo(before);
        }

        @Test
        @DisplayName(
                "a slot started over by a store that never saw it is refused by every store that"
                        + " did")
        void restartedSlot() {
            Tampering tampering = tampering();
            define(2);
            SlotLease first = acquire("a");
            slots().release(first, first.floor());
            SlotLease lease = slots().renew(acquire("a"));
            assertThat(lease.fence()).isEqualTo(2);
            Store witness = anotherStore();
            assertThat(witness.slots().inspect(NS).slots()).isNotEmpty();
            witness.slots().acquire(NS, "w", LONG_TTL); // reads slot 0 as held by "a"
            tampering.deleteSlot(NS, lease.slot());
            SlotLease restarted = anotherStore().slots().acquire(NS, "b", LONG_TTL, lease.slot());
            assertThat(restarted.fence())
                    .as("a store that never saw the slot cannot tell")
                    .isEqualTo(1);
            Object before = tampering.snapshot();
            assertThatThrownBy(() -> slots().renew(lease))
                    .isInstanceOf(StoreCorruptedException.class)
                    .hasMessageContaining("fence went back");
            assertThatThrownBy(() -> acquire("c")).isInstanceOf(StoreCorruptedException.class);
            assertThatThrownBy(() -> witness.slots().acquire(NS, "d", LONG_TTL))
                    .isInstanceOf(StoreCorruptedException.class);
            assertThat(tampering.snapshot()).isEqualTo(before);
        }

        @Test
        @DisplayName(
                "a deleted slot advanced past what the store saw is accepted again (the repair)")
        void deletedSlotRepaired() {
            Tampering tampering = tampering();
            define(1);
            SlotLease lease = acquire("a");
            tampering.deleteSlot(NS, lease.slot());
            assertThatThrownBy(() -> acquire("b")).isInstanceOf(StoreCorruptedException.class);
            anotherStore().slots().advance(NS, lease.slot(), lease.fence() + 1, lease.ceiling());
            assertThatThrownBy(() -> slots().renew(lease))
                    .as("its term is over")
                    .isInstanceOf(LeaseLostException.class);
            SlotLease next = acquire("b");
            assertThat(next.fence()).isEqualTo(lease.fence() + 2);
            assertThat(next.floor()).isAfterOrEqualTo(lease.ceiling());
        }

        @Test
        @DisplayName(
                "a corrupt namespace is reported by define, acquire and inspect, and left"
                        + " untouched")
        void corruptNamespace() {
            Tampering tampering = tampering();
            define(4);
            tampering.corruptNamespace(NS, "limit=-3");
            Object before = tampering.snapshot();
            assertThatThrownBy(() -> define(4))
                    .isInstanceOf(StoreCorruptedException.class)
                    .hasMessageContaining(NS);
            assertThatThrownBy(() -> acquire("a")).isInstanceOf(StoreCorruptedException.class);
            assertThatThrownBy(() -> slots().inspect(NS))
                    .isInstanceOf(StoreCorruptedException.class);
            assertThat(tampering.snapshot()).isEqualTo(before);
        }

        @Test
        @DisplayName(
                "a corrupt owner index is reported by that owner's acquire, and left untouched")
        void corruptOwnerIndex() {
            Tampering tampering = tampering();
            define(4);
            slots().release(acquire("a"));
            tampering.corruptOwnerIndex(NS, "a", "zero,one");
            Object before = tampering.snapshot();
            assertThatThrownBy(() -> acquire("a"))
                    .isInstanceOf(StoreCorruptedException.class)
                    .hasMessageContaining("a");
            assertThat(tampering.snapshot()).isEqualTo(before);
            assertThat(acquire("b").slot()).isZero();
        }
    }
}
