package io.cosid.store.tck;

import static java.time.temporal.ChronoUnit.MILLIS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cosid.store.LeaseGuard;
import io.cosid.store.LeaseLostException;
import io.cosid.store.SlotBusyException;
import io.cosid.store.SlotLease;
import io.cosid.store.SlotView;
import io.cosid.store.SlotsExhaustedException;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The SlotLeaseStore contract's terms (docs/contract.md, "Terms and leases"): renew, release,
 * expiry and takeover, the store's clock stepping back, and advance. Runs as part of {@link
 * SlotLeaseStoreContract}.
 */
abstract class SlotTermsPart extends SlotContractBase {

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
}
