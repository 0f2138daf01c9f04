package io.cosid.store.cosid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cosid.store.NamespaceConflictException;
import io.cosid.store.NamespaceSnapshot;
import io.cosid.store.SlotLease;
import io.cosid.store.SlotView;
import io.cosid.store.Store;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import me.ahoo.cosid.CosIdException;
import me.ahoo.cosid.machine.InstanceId;
import me.ahoo.cosid.machine.MachineIdDistributor;
import me.ahoo.cosid.machine.MachineIdLostException;
import me.ahoo.cosid.machine.MachineIdOverflowException;
import me.ahoo.cosid.machine.MachineState;
import me.ahoo.cosid.machine.NotFoundMachineStateException;
import me.ahoo.cosid.snowflake.SecondSnowflakeId;
import me.ahoo.cosid.snowflake.exception.ClockTooManyBackwardsException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * CosId's machine ids on cosid-store's in-memory backend, with every clock set by hand: each {@link
 * MachineRig#process} is one process (its own store on the shared backend).
 */
@DisplayName("CosId machine ids on a cosid-store SlotLeaseStore")
class StoreMachineIdDistributorTest {

    private static final String NS = "orders";
    private static final int BITS = 2;
    private static final Duration TTL = Duration.ofSeconds(30);
    private static final Duration TOLERANCE = Duration.ofSeconds(2);
    private static final InstanceId ALPHA = InstanceId.of("alpha", true);
    private static final InstanceId BETA = InstanceId.of("beta", true);

    private final MachineRig rig = new MachineRig();

    @AfterEach
    void close() {
        rig.close();
    }

    private NamespaceSnapshot inspect() {
        Store operator = rig.backend.open();
        try {
            return operator.slots().inspect(NS);
        } finally {
            operator.close();
        }
    }

    private SlotView slot(int slot) {
        return Slots.of(inspect(), slot);
    }

    private LeaseBoundSnowflakeId generator(
            StoreMachineIdDistributor distributor, InstanceId instance, MachineState state) {
        return generator(distributor, instance, state, Duration.ZERO);
    }

    private LeaseBoundSnowflakeId generator(
            StoreMachineIdDistributor distributor,
            InstanceId instance,
            MachineState state,
            Duration behind) {
        return new LeaseBoundSnowflakeId(
                new ClockedSnowflakeId(BITS, state.getMachineId(), rig.clockBehind(behind)),
                distributor,
                NS,
                instance);
    }

    /**
     * Fills all slots but {@code free} with instances of another process whose leases outlive the
     * test.
     */
    private void fillOthers(int free) {
        StoreMachineIdDistributor others = rig.process(TOLERANCE);
        for (int i = 0; i < MachineIdDistributor.totalMachineIds(BITS) - free; i++) {
            others.distribute(NS, BITS, InstanceId.of("other-" + i, true), Duration.ofHours(1));
        }
    }

    @Nested
    @DisplayName("distribute")
    class Distribute {

        @Test
        @DisplayName("hands out 2^machineBit distinct machine ids, then MachineIdOverflowException")
        void distinctThenOverflow() {
            StoreMachineIdDistributor distributor = rig.process(TOLERANCE);
            int total = MachineIdDistributor.totalMachineIds(BITS);
            for (int i = 0; i < total; i++) {
                assertThat(
                                distributor
                                        .distribute(NS, BITS, InstanceId.of("i-" + i, true), TTL)
                                        .getMachineId())
                        .isEqualTo(i);
            }

            assertThatThrownBy(() -> distributor.distribute(NS, BITS, ALPHA, TTL))
                    .isInstanceOf(MachineIdOverflowException.class)
                    .satisfies(
                            e ->
                                    assertThat(
                                                    ((MachineIdOverflowException) e)
                                                            .getTotalMachineIds())
                                            .isEqualTo(total));
            assertThat(inspect().held()).hasSize(total);
            assertThat(distributor.leaseOf(NS, ALPHA)).isNull();
        }

        @Test
        @DisplayName("defines the namespace with 2^machineBit slots and the tolerance given")
        void definesNamespace() {
            rig.process(TOLERANCE).distribute(NS, 5, ALPHA, TTL);

            assertThat(inspect().namespace().limit()).isEqualTo(32);
            assertThat(inspect().namespace().tolerance()).isEqualTo(TOLERANCE);
        }

        @Test
        @DisplayName("uses the InstanceId as owner key and the safe-guard duration as ttl")
        void ownerAndTtl() {
            StoreMachineIdDistributor distributor = rig.process(TOLERANCE);
            distributor.distribute(NS, BITS, ALPHA, TTL);

            SlotLease lease = distributor.leaseOf(NS, ALPHA);
            assertThat(lease).isNotNull();
            assertThat(lease.ownerKey()).isEqualTo("alpha");
            assertThat(lease.ttl()).isEqualTo(TTL);
            assertThat(slot(0).ownerKey()).isEqualTo("alpha");
        }

        @Test
        @DisplayName("maps CosId's FOREVER_SAFE_GUARD_DURATION to the forever ttl (10 minutes)")
        void foreverIsTheForeverTtl() {
            StoreMachineIdDistributor distributor = rig.process(TOLERANCE);
            distributor.distribute(
                    NS, BITS, ALPHA, MachineIdDistributor.FOREVER_SAFE_GUARD_DURATION);

            assertThat(distributor.leaseOf(NS, ALPHA).ttl())
                    .isEqualTo(StoreMachineIdDistributor.DEFAULT_FOREVER_TTL)
                    .isEqualTo(Duration.ofMinutes(10));
        }

        @Test
        @DisplayName("a second call while held renews in the store: same machine id, same fence")
        void againWhileHeldRenews() {
            StoreMachineIdDistributor distributor = rig.process(TOLERANCE);
            MachineState first = distributor.distribute(NS, BITS, ALPHA, TTL);
            rig.pass(Duration.ofSeconds(10));

            MachineState second = distributor.distribute(NS, BITS, ALPHA, TTL);

            assertThat(second.getMachineId()).isEqualTo(first.getMachineId());
            assertThat(slot(0).fence()).isEqualTo(1);
            assertThat(slot(0).expiresAt()).isEqualTo(MachineRig.START.plus(TTL).plusSeconds(10));
        }

        @Test
        @DisplayName(
                "a second call while held with a machineBit below the namespace's is refused"
                        + " before any write: NamespaceConflictException, the lease untouched")
        void againWhileHeldChecksMachineBit() {
            StoreMachineIdDistributor distributor = rig.process(TOLERANCE);
            for (int i = 0; i < 4; i++) {
                rig.process(TOLERANCE).distribute(NS, 3, InstanceId.of("i-" + i, true), TTL);
            }
            assertThat(distributor.distribute(NS, 3, ALPHA, TTL).getMachineId()).isEqualTo(4);
            SlotView before = slot(4);
            rig.pass(Duration.ofSeconds(1));

            assertThatThrownBy(() -> distributor.distribute(NS, 2, ALPHA, TTL))
                    .isInstanceOf(NamespaceConflictException.class)
                    .hasMessageContaining("exists with limit 8")
                    .hasMessageContaining("cannot define it with limit 4")
                    .hasMessageContaining("a machineBit of at least 3 fits");

            assertThat(slot(4)).isEqualTo(before);
            assertThat(inspect().namespace().limit()).isEqualTo(8);
            assertThat(distributor.leaseOf(NS, ALPHA).slot()).isEqualTo(4);
        }

        @Test
        @DisplayName(
                "a namespace defined with another tolerance is refused with the setting to change"
                        + " (Spring Boot's and the migration's), both defaulting to 1s")
        void toleranceConflictNamesTheSetting() {
            rig.process(Duration.ofSeconds(2)).distribute(NS, BITS, BETA, TTL);

            assertThatThrownBy(
                            () ->
                                    rig.process(StoreMachineIdDistributor.DEFAULT_TOLERANCE)
                                            .distribute(NS, BITS, ALPHA, TTL))
                    .isInstanceOf(NamespaceConflictException.class)
                    .hasMessageContaining("exists with limit 4 and tolerance 2s")
                    .hasMessageContaining("tolerance 1s:")
                    .hasMessageContaining("give this distributor the namespace's tolerance, 2s")
                    .hasMessageContaining("cosid-store.machine.tolerance")
                    .hasMessageContaining("--tolerance");
            assertThat(StoreMachineIdDistributor.DEFAULT_TOLERANCE)
                    .isEqualTo(Duration.ofSeconds(1));
        }

        @Test
        @DisplayName(
                "a second call after the store ended the term acquires anew, never answering"
                        + " from memory")
        void againAfterLossAcquires() {
            fillOthers(1);
            StoreMachineIdDistributor paused = rig.process(TOLERANCE);
            assertThat(paused.distribute(NS, BITS, ALPHA, TTL).getMachineId()).isEqualTo(3);
            rig.pass(TTL);
            rig.process(TOLERANCE).distribute(NS, BITS, BETA, TTL);

            assertThatThrownBy(() -> paused.distribute(NS, BITS, ALPHA, TTL))
                    .isInstanceOf(MachineIdOverflowException.class);
            assertThat(paused.leaseOf(NS, ALPHA)).isNull();
        }

        @Test
        @DisplayName("checks its arguments before writing anything")
        void badInput() {
            StoreMachineIdDistributor distributor = rig.process(TOLERANCE);

            assertThatThrownBy(() -> distributor.distribute(NS, 17, ALPHA, TTL))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage(
                            "machineBit must be 1..16 (a namespace has at most 65536 slots), was"
                                    + " 17");
            assertThatThrownBy(() -> distributor.distribute(NS, 0, ALPHA, TTL))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("machineBit must be 1..16");
            assertThatThrownBy(() -> distributor.distribute("a/b", BITS, ALPHA, TTL))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("namespace 'a/b' is invalid");
            assertThatThrownBy(
                            () ->
                                    distributor.distribute(
                                            NS, BITS, InstanceId.of("pod/7", true), TTL))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith(
                            "CosId's InstanceId 'pod/7' cannot be the lease's owner key:");
            assertThatThrownBy(() -> distributor.distribute(NS, BITS, null, TTL))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("instanceId must not be null");
            assertThatThrownBy(() -> distributor.distribute(NS, BITS, ALPHA, Duration.ZERO))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith(
                            "safeGuardDuration is the lease's ttl and must be 1 ms to 24 hours");
            assertThatThrownBy(() -> distributor.distribute(NS, BITS, ALPHA, Duration.ofDays(2)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("was 2d");
            try (Store operator = rig.backend.open()) {
                assertThat(operator.slots().namespaces()).isEmpty();
            }
        }
    }

    @Nested
    @DisplayName("the wait for the floor")
    class Floor {

        /** Alpha holds slot 3 and stops renewing; returns its lease. */
        private SlotLease pausedHolder() {
            fillOthers(1);
            StoreMachineIdDistributor paused = rig.process(TOLERANCE);
            paused.distribute(NS, BITS, ALPHA, TTL);
            return paused.leaseOf(NS, ALPHA);
        }

        @Test
        @DisplayName(
                "with a tolerance of 2 s a takeover waits for the floor: no"
                        + " ClockTooManyBackwardsException, first ID at or above the floor")
        void takeoverWaits() {
            SlotLease before = pausedHolder();
            rig.pass(TTL);
            Duration behind = Duration.ofMillis(1_500);
            StoreMachineIdDistributor taker = rig.process(TOLERANCE, behind);

            MachineState state = taker.distribute(NS, BITS, BETA, TTL);

            SlotLease lease = taker.leaseOf(NS, BETA);
            assertThat(state.getMachineId()).isEqualTo(3);
            assertThat(lease.floor()).isEqualTo(before.ceiling());
            assertThat(rig.waits).isNotEmpty();
            assertThat(rig.clockBehind(behind).instant()).isAfterOrEqualTo(lease.floor());
            assertThat(state.getLastTimeStamp())
                    .isGreaterThanOrEqualTo(lease.floor().toEpochMilli());
            long id = generator(taker, BETA, state, behind).generate();
            assertThat(ClockedSnowflakeId.timestampOf(id))
                    .isGreaterThanOrEqualTo(before.ceiling().toEpochMilli());
            assertThat(slot(3).ownerKey()).isEqualTo("beta");
            assertThat(slot(3).fence()).isEqualTo(before.fence() + 1);
        }

        @Test
        @DisplayName(
                "a clock further behind the floor than the previous window kept plus twice the"
                        + " tolerance:"
                        + " ClockTooManyBackwardsException, and the lease released")
        void tooFarBehindReleases() {
            SlotLease before = pausedHolder();
            rig.pass(TTL);
            StoreMachineIdDistributor taker = rig.process(TOLERANCE, Duration.ofSeconds(5));

            assertThatThrownBy(() -> taker.distribute(NS, BITS, BETA, TTL))
                    .isInstanceOf(ClockTooManyBackwardsException.class);

            SlotView after = slot(3);
            assertThat(after.fence()).isEqualTo(before.fence() + 1);
            assertThat(after.released()).isTrue();
            assertThat(after.nextFloor()).isEqualTo(before.ceiling());
            assertThat(taker.leaseOf(NS, BETA)).isNull();
            assertThat(rig.waits).isEmpty();
        }

        @Test
        @DisplayName("an interrupt while waiting releases the lease and keeps the interrupt")
        void interruptReleases() {
            SlotLease before = pausedHolder();
            rig.pass(TTL);
            try (Store store = rig.backend.open()) {
                StoreMachineIdDistributor taker =
                        new StoreMachineIdDistributor(
                                store.slots(),
                                TOLERANCE,
                                StoreMachineIdDistributor.DEFAULT_FOREVER_TTL,
                                rig.clock,
                                duration -> {
                                    throw new InterruptedException("stopped by the test");
                                },
                                rig.nanos::get);

                assertThatThrownBy(() -> taker.distribute(NS, BITS, BETA, TTL))
                        .isInstanceOf(CosIdException.class)
                        .hasMessageStartingWith("interrupted while waiting for the floor");
                assertThat(Thread.interrupted()).isTrue();
            }
            assertThat(slot(3).released()).isTrue();
            assertThat(slot(3).nextFloor()).isEqualTo(before.ceiling());
        }
    }

    @Nested
    @DisplayName("guard and revert")
    class GuardAndRevert {

        @Test
        @DisplayName("guard renews the same term: same fence, later expiry")
        void guardRenews() {
            StoreMachineIdDistributor distributor = rig.process(TOLERANCE);
            distributor.distribute(NS, BITS, ALPHA, TTL);
            rig.pass(Duration.ofSeconds(20));

            distributor.guard(NS, ALPHA, TTL);

            assertThat(slot(0).fence()).isEqualTo(1);
            assertThat(slot(0).expiresAt()).isEqualTo(rig.clock.instant().plus(TTL));
            assertThat(distributor.leaseOf(NS, ALPHA).expiresAt())
                    .isEqualTo(rig.clock.instant().plus(TTL));
        }

        @Test
        @DisplayName(
                "a takeover after a paused holder: guard throws MachineIdLostException, and"
                        + " keeps throwing; the generator refuses")
        void takeoverLosesTheId() {
            fillOthers(1);
            StoreMachineIdDistributor paused = rig.process(TOLERANCE);
            MachineState state = paused.distribute(NS, BITS, ALPHA, TTL);
            LeaseBoundSnowflakeId ids = generator(paused, ALPHA, state);
            long before = ids.generate();
            rig.pass(TTL);
            assertThatThrownBy(ids::generate)
                    .isInstanceOf(MachineIdLeaseException.class)
                    .hasMessageContaining("was not renewed within its ttl of 30000 ms");
            rig.process(TOLERANCE).distribute(NS, BITS, BETA, TTL);

            assertThatThrownBy(() -> paused.guard(NS, ALPHA, TTL))
                    .isInstanceOf(MachineIdLostException.class);
            assertThatThrownBy(() -> paused.guard(NS, ALPHA, TTL))
                    .isInstanceOf(MachineIdLostException.class);
            assertThatThrownBy(ids::generate)
                    .isInstanceOf(MachineIdLeaseException.class)
                    .hasMessageContaining(
                            "machine id 3 of instance alpha in namespace 'orders' (fence 1) was"
                                    + " lost");
            assertThat(paused.leaseOf(NS, ALPHA)).isNull();
            assertThat(before).isPositive();
        }

        @Test
        @DisplayName(
                "revert releases the term at the highest timestamp handed out; generators stop")
        void revertReleases() {
            StoreMachineIdDistributor distributor = rig.process(TOLERANCE);
            MachineState state = distributor.distribute(NS, BITS, ALPHA, TTL);
            LeaseBoundSnowflakeId ids = generator(distributor, ALPHA, state);
            long last = 0;
            for (int i = 0; i < 100; i++) {
                last = ids.generate();
                rig.pass(Duration.ofMillis(1));
            }

            distributor.revert(NS, ALPHA);

            SlotView after = slot(0);
            assertThat(after.released()).isTrue();
            assertThat(after.nextFloor())
                    .isEqualTo(Instant.ofEpochMilli(ClockedSnowflakeId.timestampOf(last) + 1));
            assertThatThrownBy(ids::generate)
                    .isInstanceOf(MachineIdLeaseException.class)
                    .hasMessageContaining("was reverted");
            assertThatThrownBy(() -> distributor.revert(NS, ALPHA))
                    .isInstanceOf(NotFoundMachineStateException.class);
            assertThatThrownBy(() -> distributor.guard(NS, ALPHA, TTL))
                    .isInstanceOf(NotFoundMachineStateException.class);
        }

        @Test
        @DisplayName(
                "revert after CosId's own generator (no LeaseBoundSnowflakeId) declares nothing:"
                        + " the next floor is the lease's ceiling")
        void revertAfterOwnGeneratorDeclaresNothing() {
            StoreMachineIdDistributor distributor = rig.process(TOLERANCE);
            MachineState state = distributor.distribute(NS, BITS, ALPHA, TTL);
            ClockedSnowflakeId plain =
                    new ClockedSnowflakeId(
                            BITS, state.getMachineId(), rig.clockBehind(Duration.ZERO));
            for (int i = 0; i < 100; i++) {
                plain.generate();
                rig.pass(Duration.ofMillis(10));
            }
            SlotLease lease = distributor.leaseOf(NS, ALPHA);

            distributor.revert(NS, ALPHA);

            SlotView after = slot(0);
            assertThat(after.released()).isTrue();
            assertThat(after.nextFloor()).isEqualTo(lease.ceiling());
        }

        @Test
        @DisplayName("revert then distribute in one process asks the store: the slot is held again")
        void revertThenDistributeAsksTheStore() {
            StoreMachineIdDistributor distributor = rig.process(TOLERANCE);
            distributor.distribute(NS, BITS, ALPHA, TTL);
            distributor.revert(NS, ALPHA);
            assertThat(inspect().held()).isEmpty();

            MachineState again = distributor.distribute(NS, BITS, ALPHA, TTL);

            assertThat(again.getMachineId()).isZero();
            assertThat(inspect().held())
                    .singleElement()
                    .satisfies(
                            s -> {
                                assertThat(s.ownerKey()).isEqualTo("alpha");
                                assertThat(s.fence()).isEqualTo(2);
                                assertThat(s.incarnation()).isEqualTo(2);
                            });
        }

        @Test
        @DisplayName(
                "a generator built for the old machine id refuses after revert and a new"
                        + " distribute hands out another")
        void staleGeneratorRefuses() {
            StoreMachineIdDistributor distributor = rig.process(TOLERANCE);
            MachineState first = distributor.distribute(NS, BITS, ALPHA, TTL);
            LeaseBoundSnowflakeId old = generator(distributor, ALPHA, first);
            distributor.revert(NS, ALPHA);
            rig.process(TOLERANCE).distribute(NS, BITS, BETA, TTL);

            MachineState second = distributor.distribute(NS, BITS, ALPHA, TTL);

            assertThat(second.getMachineId()).isEqualTo(1);
            assertThatThrownBy(old::generate)
                    .isInstanceOf(MachineIdLeaseException.class)
                    .hasMessageStartingWith("this generator stamps machine id 0 but machine id 1");
            assertThat(generator(distributor, ALPHA, second).generate()).isPositive();
        }
    }

    @Nested
    @DisplayName("a restart with the same stable InstanceId")
    class Restart {

        @Test
        @DisplayName(
                "after revert: the same slot, a larger fence, stamps above what was handed out")
        void afterRevert() {
            StoreMachineIdDistributor first = rig.process(TOLERANCE);
            MachineState state = first.distribute(NS, BITS, ALPHA, TTL);
            long last = generator(first, ALPHA, state).generate();
            first.revert(NS, ALPHA);
            Instant end = slot(0).nextFloor();

            StoreMachineIdDistributor restarted = rig.process(TOLERANCE);
            MachineState again = restarted.distribute(NS, BITS, ALPHA, TTL);

            assertThat(again.getMachineId()).isEqualTo(state.getMachineId());
            assertThat(restarted.leaseOf(NS, ALPHA).fence()).isEqualTo(2);
            assertThat(restarted.leaseOf(NS, ALPHA).floor()).isEqualTo(end);
            long next = generator(restarted, ALPHA, again).generate();
            assertThat(ClockedSnowflakeId.timestampOf(next))
                    .isGreaterThanOrEqualTo(end.toEpochMilli())
                    .isGreaterThan(ClockedSnowflakeId.timestampOf(last));
        }

        @Test
        @DisplayName(
                "after a revert that declared nothing, with a clock behind: waits for the old"
                        + " ceiling, renewing every third of the ttl, and stamps above every ID of"
                        + " CosId's own generator")
        void afterUndeclaredRevertWaitsForTheCeiling() {
            StoreMachineIdDistributor first = rig.process(TOLERANCE);
            MachineState state = first.distribute(NS, BITS, ALPHA, TTL);
            ClockedSnowflakeId plain =
                    new ClockedSnowflakeId(
                            BITS, state.getMachineId(), rig.clockBehind(Duration.ZERO));
            long last = 0;
            for (int i = 0; i < 100; i++) {
                last = plain.generate();
                rig.pass(Duration.ofMillis(10));
            }
            SlotLease old = first.leaseOf(NS, ALPHA);
            first.revert(NS, ALPHA);

            Duration behind = Duration.ofMillis(1_500);
            StoreMachineIdDistributor restarted = rig.process(TOLERANCE, behind);
            MachineState again = restarted.distribute(NS, BITS, ALPHA, TTL);

            assertThat(again.getMachineId()).isEqualTo(state.getMachineId());
            SlotLease lease = restarted.leaseOf(NS, ALPHA);
            assertThat(lease.floor()).isEqualTo(old.ceiling());
            assertThat(rig.waits)
                    .as("steps of at most a third of the ttl, each followed by a renew")
                    .hasSizeGreaterThan(3)
                    .allSatisfy(w -> assertThat(w).isLessThanOrEqualTo(TTL.dividedBy(3)));
            assertThat(lease.fence()).isEqualTo(old.fence() + 1);
            assertThat(lease.expiresAt())
                    .as("renewed after the wait")
                    .isEqualTo(rig.clock.instant().plus(TTL));
            long next =
                    new ClockedSnowflakeId(BITS, again.getMachineId(), rig.clockBehind(behind))
                            .generate();
            assertThat(ClockedSnowflakeId.timestampOf(next))
                    .isGreaterThanOrEqualTo(old.ceiling().toEpochMilli())
                    .isGreaterThan(ClockedSnowflakeId.timestampOf(last));
        }

        @Test
        @DisplayName(
                "after kill -9, once the lease expired: the same slot, a larger fence, never"
                        + " stamping below the previous window's ceiling")
        void afterCrash() {
            StoreMachineIdDistributor crashed = rig.process(TOLERANCE);
            MachineState state = crashed.distribute(NS, BITS, ALPHA, TTL);
            generator(crashed, ALPHA, state).generate();
            SlotLease old = crashed.leaseOf(NS, ALPHA);
            rig.process(TOLERANCE).distribute(NS, BITS, BETA, TTL);
            rig.pass(TTL);

            StoreMachineIdDistributor restarted = rig.process(TOLERANCE);
            MachineState again = restarted.distribute(NS, BITS, ALPHA, TTL);

            assertThat(again.getMachineId()).isEqualTo(state.getMachineId());
            SlotLease lease = restarted.leaseOf(NS, ALPHA);
            assertThat(lease.fence()).isEqualTo(old.fence() + 1);
            assertThat(lease.incarnation()).isEqualTo(2);
            assertThat(lease.floor()).isEqualTo(old.ceiling());
            long first = generator(restarted, ALPHA, again).generate();
            assertThat(ClockedSnowflakeId.timestampOf(first))
                    .isGreaterThanOrEqualTo(old.ceiling().toEpochMilli());
        }
    }

    @Nested
    @DisplayName("LeaseBoundSnowflakeId")
    class LeaseBound {

        @Test
        @DisplayName("hands out the wrapped generator's IDs while the lease covers them")
        void handsOut() {
            StoreMachineIdDistributor distributor = rig.process(TOLERANCE);
            MachineState state = distributor.distribute(NS, BITS, ALPHA, TTL);
            LeaseBoundSnowflakeId ids = generator(distributor, ALPHA, state);

            long id = ids.generate();

            assertThat(ids.getMachineId()).isEqualTo(state.getMachineId());
            assertThat(ids.getActual()).isInstanceOf(ClockedSnowflakeId.class);
            assertThat(ClockedSnowflakeId.timestampOf(id)).isEqualTo(rig.clock.millis());
            assertThat(ids.getMachineBit()).isEqualTo(BITS);
            assertThat(ids.getLastTimestamp()).isEqualTo(rig.clock.millis());
        }

        @Test
        @DisplayName("refuses a timestamp below the floor: a clock behind the window")
        void belowFloor() {
            StoreMachineIdDistributor distributor = rig.process(TOLERANCE);
            MachineState state = distributor.distribute(NS, BITS, ALPHA, TTL);
            generator(distributor, ALPHA, state).generate();
            distributor.revert(NS, ALPHA);
            MachineState again = distributor.distribute(NS, BITS, ALPHA, TTL);
            Instant floor = distributor.leaseOf(NS, ALPHA).floor();
            LeaseBoundSnowflakeId behind =
                    generator(distributor, ALPHA, again, Duration.ofSeconds(3));

            assertThat(state.getMachineId()).isEqualTo(again.getMachineId());
            assertThat(floor).isEqualTo(MachineRig.START.plusMillis(1));
            assertThatThrownBy(behind::generate)
                    .isInstanceOf(MachineIdLeaseException.class)
                    .hasMessageContaining("is 3000 ms before the floor " + floor);
        }

        @Test
        @DisplayName("refuses a timestamp at or past the ceiling: a clock ahead of the window")
        void pastCeiling() {
            StoreMachineIdDistributor distributor = rig.process(TOLERANCE);
            MachineState state = distributor.distribute(NS, BITS, ALPHA, TTL);
            SlotLease lease = distributor.leaseOf(NS, ALPHA);
            LeaseBoundSnowflakeId ahead =
                    generator(distributor, ALPHA, state, TTL.plus(TOLERANCE).negated());

            assertThatThrownBy(ahead::generate)
                    .isInstanceOf(MachineIdLeaseException.class)
                    .hasMessageContaining("is at or past the ceiling " + lease.ceiling());
        }

        @Test
        @DisplayName("takes second timestamps: the whole second must lie in the window")
        void seconds() {
            StoreMachineIdDistributor distributor = rig.process(TOLERANCE);
            MachineState state = distributor.distribute(NS, BITS, ALPHA, TTL);
            SecondSnowflakeId actual = new SecondSnowflakeId(state.getMachineId());
            LeaseBoundSnowflakeId ids =
                    new LeaseBoundSnowflakeId(actual, distributor, NS, ALPHA, TimeUnit.SECONDS);

            // the window starts at the store's clock, the rig's fixed 2026 instant: today's
            // second lies far past its ceiling
            assertThatThrownBy(ids::generate)
                    .isInstanceOf(MachineIdLeaseException.class)
                    .hasMessageContaining("past the ceiling");
        }

        @Test
        @DisplayName("refuses to be built without a held machine id, or for another one")
        void buildChecks() {
            StoreMachineIdDistributor distributor = rig.process(TOLERANCE);
            assertThatThrownBy(
                            () ->
                                    new LeaseBoundSnowflakeId(
                                            new ClockedSnowflakeId(BITS, 0, rig.clock),
                                            distributor,
                                            NS,
                                            ALPHA))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage(
                            "the distributor holds no machine id for instance alpha in namespace"
                                    + " 'orders'; call distribute first");
            distributor.distribute(NS, BITS, ALPHA, TTL);
            assertThatThrownBy(
                            () ->
                                    new LeaseBoundSnowflakeId(
                                            new ClockedSnowflakeId(BITS, 2, rig.clock),
                                            distributor,
                                            NS,
                                            ALPHA))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageStartingWith(
                            "the generator stamps machine id 2 but the distributor holds machine"
                                    + " id 0");
            assertThatThrownBy(
                            () ->
                                    new LeaseBoundSnowflakeId(
                                            new ClockedSnowflakeId(BITS, 0, rig.clock),
                                            distributor,
                                            NS,
                                            ALPHA,
                                            TimeUnit.MINUTES))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("timestampUnit must be MILLISECONDS or SECONDS, was MINUTES");
        }

        @Test
        @DisplayName("no ID twice across a takeover of its machine id")
        void noneTwiceAcrossTakeover() {
            fillOthers(1);
            StoreMachineIdDistributor paused = rig.process(TOLERANCE);
            MachineState state = paused.distribute(NS, BITS, ALPHA, TTL);
            LeaseBoundSnowflakeId first = generator(paused, ALPHA, state);
            long[] before = new long[1_000];
            for (int i = 0; i < before.length; i++) {
                before[i] = first.generate();
                if (i % 100 == 99) {
                    rig.pass(Duration.ofMillis(1));
                }
            }
            rig.pass(TTL.plus(TOLERANCE.multipliedBy(4)));
            rig.clock.stepBack(TOLERANCE.multipliedBy(3));
            StoreMachineIdDistributor taker = rig.process(TOLERANCE);
            MachineState taken = taker.distribute(NS, BITS, BETA, TTL);
            LeaseBoundSnowflakeId second = generator(taker, BETA, taken);
            long firstAfter = second.generate();

            assertThat(taken.getMachineId()).isEqualTo(state.getMachineId());
            assertThat(List.of(firstAfter))
                    .doesNotContainAnyElementsOf(Arrays.stream(before).boxed().toList());
            assertThat(ClockedSnowflakeId.timestampOf(firstAfter))
                    .isGreaterThan(ClockedSnowflakeId.timestampOf(before[before.length - 1]));
        }
    }
}
