package io.cosid.store.cosid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.cosid.store.NamespaceSnapshot;
import io.cosid.store.SlotLease;
import io.cosid.store.SlotView;
import io.cosid.store.Store;
import io.cosid.store.zookeeper.harness.ZooKeeperServerExtension;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import me.ahoo.cosid.machine.DefaultMachineIdGuarder;
import me.ahoo.cosid.machine.InstanceId;
import me.ahoo.cosid.machine.MachineIdLostException;
import me.ahoo.cosid.machine.MachineIdOverflowException;
import me.ahoo.cosid.machine.MachineState;
import me.ahoo.cosid.snowflake.exception.ClockTooManyBackwardsException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * CosId's snowflake generators on machine ids from cosid-store's ZooKeeper backend, against a real
 * ZooKeeper server and real clocks: each store is one process (its own session). Leases last
 * seconds, a thousand round trips and more; waits are Awaitility's, bounded generously.
 */
@DisplayName("CosId machine ids on a real ZooKeeper server")
class MachineIdsOnZooKeeperTest {

    @RegisterExtension
    static final ZooKeeperServerExtension SERVER = ZooKeeperServerExtension.primary();

    private static final String NS = "orders";
    private static final int BITS = 1;
    private static final Duration SHORT_TTL = Duration.ofSeconds(2);
    private static final Duration TOLERANCE = Duration.ofSeconds(2);
    private static final InstanceId ALPHA = InstanceId.of("alpha", true);
    private static final InstanceId BETA = InstanceId.of("beta", true);

    private final Generating generating = new Generating();
    private final String root = "/cosid-" + UUID.randomUUID();
    private final ScheduledExecutorService guarding = Executors.newSingleThreadScheduledExecutor();
    private int processes;
    private Store operator;

    @AfterEach
    void close() {
        guarding.shutdownNow();
        generating.close();
    }

    private Store process() {
        return generating.zooKeeper(
                SERVER.server().connectString(), root, "process-" + processes++);
    }

    private StoreMachineIdDistributor distributor(Store store, Duration tolerance) {
        return new StoreMachineIdDistributor(store.slots(), tolerance);
    }

    /** What an operator's session (one per test, opened on first use) sees of the namespace. */
    private NamespaceSnapshot inspect() {
        if (operator == null) {
            operator = process();
        }
        return operator.slots().inspect(NS);
    }

    private SlotView slot(int slot) {
        return Slots.of(inspect(), slot);
    }

    private static LeaseBoundSnowflakeId generator(
            StoreMachineIdDistributor distributor, InstanceId instance, MachineState state) {
        return new LeaseBoundSnowflakeId(
                new ClockedSnowflakeId(BITS, state.getMachineId(), InstantSource.system()),
                distributor,
                NS,
                instance);
    }

    /** Waits, by the store's clock, until the slot's lease expired. */
    private void awaitExpiry(int slot) {
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(100))
                .until(
                        () -> {
                            NamespaceSnapshot snapshot = inspect();
                            return snapshot.slots().stream()
                                    .noneMatch(s -> s.slot() == slot && s.isHeldAt(snapshot.now()));
                        });
    }

    @Test
    @DisplayName(
            "under DefaultMachineIdGuarder the lease is renewed in the same term past its ttl,"
                    + " and the generator keeps going")
    void guarderRenews() {
        StoreMachineIdDistributor distributor = distributor(process(), TOLERANCE);
        Duration ttl = Duration.ofSeconds(6);
        long started = System.nanoTime();
        MachineState state = distributor.distribute(NS, BITS, ALPHA, ttl);
        SlotLease first = distributor.leaseOf(NS, ALPHA);
        LeaseBoundSnowflakeId ids = generator(distributor, ALPHA, state);
        DefaultMachineIdGuarder guarder =
                new DefaultMachineIdGuarder(
                        distributor, guarding, Duration.ofMillis(500), Duration.ofMillis(500), ttl);
        guarder.register(NS, ALPHA);
        guarder.start();
        try {
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(50))
                    .until(
                            () -> {
                                ids.generate();
                                return System.nanoTime() - started > 2 * ttl.toNanos();
                            });
        } finally {
            guarder.stop();
        }

        SlotView now = slot(state.getMachineId());
        assertThat(now.fence()).isEqualTo(first.fence());
        assertThat(now.expiresAt()).isAfter(first.expiresAt().plus(ttl));
        assertThat(ids.generate()).isPositive();
    }

    @Test
    @DisplayName(
            "a takeover after a paused holder, tolerance 2 s: the taker waits for the floor"
                    + " without ClockTooManyBackwardsException; the holder's guard throws"
                    + " MachineIdLostException and its generator refuses; no ID twice")
    void takeoverAfterPause() {
        distributor(process(), TOLERANCE)
                .distribute(NS, BITS, InstanceId.of("other", true), Duration.ofMinutes(5));
        StoreMachineIdDistributor paused = distributor(process(), TOLERANCE);
        MachineState held = paused.distribute(NS, BITS, ALPHA, SHORT_TTL);
        SlotLease old = paused.leaseOf(NS, ALPHA);
        LeaseBoundSnowflakeId before = generator(paused, ALPHA, held);
        Set<Long> handedOut = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            handedOut.add(before.generate());
        }
        awaitExpiry(held.getMachineId());

        StoreMachineIdDistributor taker = distributor(process(), TOLERANCE);
        MachineState taken = taker.distribute(NS, BITS, BETA, SHORT_TTL);

        assertThat(taken.getMachineId()).isEqualTo(held.getMachineId());
        SlotLease lease = taker.leaseOf(NS, BETA);
        assertThat(lease.fence()).isEqualTo(old.fence() + 1);
        assertThat(lease.floor()).isEqualTo(old.ceiling());
        assertThat(System.currentTimeMillis()).isGreaterThanOrEqualTo(lease.floor().toEpochMilli());
        assertThatThrownBy(() -> paused.guard(NS, ALPHA, SHORT_TTL))
                .isInstanceOf(MachineIdLostException.class);
        assertThatThrownBy(before::generate)
                .isInstanceOf(MachineIdLeaseException.class)
                .hasMessageContaining("was lost");
        LeaseBoundSnowflakeId after = generator(taker, BETA, taken);
        for (int i = 0; i < 10_000; i++) {
            long id = after.generate();
            assertThat(handedOut.add(id)).as("ID %d handed out twice", id).isTrue();
        }
    }

    @Test
    @DisplayName(
            "a restart after kill -9 with the same stable InstanceId gets its slot back once"
                    + " the lease expired: larger fence, never below the old window's ceiling")
    void restartAfterCrash() {
        Store crashed = process();
        StoreMachineIdDistributor first = distributor(crashed, Duration.ofMillis(500));
        MachineState state = first.distribute(NS, BITS, ALPHA, SHORT_TTL);
        generator(first, ALPHA, state).generate();
        SlotLease old = first.leaseOf(NS, ALPHA);
        crashed.close();
        awaitExpiry(state.getMachineId());

        StoreMachineIdDistributor restarted = distributor(process(), Duration.ofMillis(500));
        MachineState again = restarted.distribute(NS, BITS, ALPHA, SHORT_TTL);

        assertThat(again.getMachineId()).isEqualTo(state.getMachineId());
        SlotLease lease = restarted.leaseOf(NS, ALPHA);
        assertThat(lease.fence()).isEqualTo(old.fence() + 1);
        assertThat(lease.incarnation()).isEqualTo(2);
        assertThat(lease.floor()).isEqualTo(old.ceiling());
        long id = generator(restarted, ALPHA, again).generate();
        assertThat(ClockedSnowflakeId.timestampOf(id))
                .isGreaterThanOrEqualTo(old.ceiling().toEpochMilli());
    }

    @Test
    @DisplayName(
            "a restart after revert gets the same slot with a larger fence and stamps above"
                    + " every ID handed out")
    void restartAfterRevert() {
        StoreMachineIdDistributor first = distributor(process(), TOLERANCE);
        MachineState state = first.distribute(NS, BITS, ALPHA, SHORT_TTL);
        LeaseBoundSnowflakeId ids = generator(first, ALPHA, state);
        long last = 0;
        for (int i = 0; i < 10_000; i++) {
            last = ids.generate();
        }
        first.revert(NS, ALPHA);
        SlotView released = slot(state.getMachineId());
        assertThat(released.released()).isTrue();
        assertThat(released.nextFloor().toEpochMilli())
                .isEqualTo(ClockedSnowflakeId.timestampOf(last) + 1);

        StoreMachineIdDistributor restarted = distributor(process(), TOLERANCE);
        MachineState again = restarted.distribute(NS, BITS, ALPHA, SHORT_TTL);

        assertThat(again.getMachineId()).isEqualTo(state.getMachineId());
        assertThat(restarted.leaseOf(NS, ALPHA).fence()).isEqualTo(released.fence() + 1);
        assertThat(generator(restarted, ALPHA, again).generate()).isGreaterThan(last);
    }

    @Test
    @DisplayName("revert then distribute in one process asks the store: the slot is held again")
    void revertThenDistribute() {
        StoreMachineIdDistributor distributor = distributor(process(), TOLERANCE);
        distributor.distribute(NS, BITS, ALPHA, SHORT_TTL);
        distributor.revert(NS, ALPHA);
        assertThat(inspect().held()).isEmpty();

        distributor.distribute(NS, BITS, ALPHA, SHORT_TTL);

        assertThat(inspect().held())
                .singleElement()
                .satisfies(
                        s -> {
                            assertThat(s.ownerKey()).isEqualTo("alpha");
                            assertThat(s.fence()).isEqualTo(2);
                        });
    }

    @Test
    @DisplayName(
            "a clock too far behind the floor: ClockTooManyBackwardsException and no leaked"
                    + " lease")
    void clockTooFarBehind() {
        StoreMachineIdDistributor first = distributor(process(), Duration.ofMillis(500));
        MachineState state = first.distribute(NS, BITS, ALPHA, SHORT_TTL);
        generator(first, ALPHA, state).generate();
        first.revert(NS, ALPHA);
        SlotView released = slot(state.getMachineId());
        InstantSource behind = () -> Instant.now().minusSeconds(10);
        StoreMachineIdDistributor lagging =
                new StoreMachineIdDistributor(
                        process().slots(),
                        Duration.ofMillis(500),
                        StoreMachineIdDistributor.DEFAULT_FOREVER_TTL,
                        behind,
                        Pause.SLEEP,
                        System::nanoTime);

        assertThatThrownBy(() -> lagging.distribute(NS, BITS, ALPHA, SHORT_TTL))
                .isInstanceOf(ClockTooManyBackwardsException.class);

        SlotView after = slot(state.getMachineId());
        assertThat(after.fence()).isEqualTo(released.fence() + 1);
        assertThat(after.released()).isTrue();
        assertThat(after.nextFloor()).isEqualTo(released.nextFloor());
        assertThat(inspect().held()).isEmpty();
    }

    @Test
    @DisplayName(
            "16 instances from 4 processes at once get 16 distinct machine ids of 4 bits;"
                    + " the 17th MachineIdOverflowException")
    void concurrentDistinctThenOverflow() throws Exception {
        List<StoreMachineIdDistributor> distributors = new ArrayList<>();
        for (int p = 0; p < 4; p++) {
            distributors.add(distributor(process(), TOLERANCE));
        }
        List<Callable<long[]>> tasks = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            StoreMachineIdDistributor d = distributors.get(i % 4);
            InstanceId instance = InstanceId.of("instance-" + i, false);
            tasks.add(
                    () ->
                            new long[] {
                                d.distribute(NS, 4, instance, Duration.ofMinutes(1)).getMachineId()
                            });
        }

        long[] machineIds = generating.all(tasks);

        assertThat(machineIds)
                .containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
        assertThat(inspect().held()).hasSize(16);
        assertThatThrownBy(
                        () ->
                                distributors
                                        .get(1)
                                        .distribute(
                                                NS,
                                                4,
                                                InstanceId.of("late", false),
                                                Duration.ofMinutes(1)))
                .isInstanceOf(MachineIdOverflowException.class);
    }
}
