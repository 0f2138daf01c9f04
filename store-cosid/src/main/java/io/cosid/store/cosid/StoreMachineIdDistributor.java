package io.cosid.store.cosid;

import io.cosid.store.LeaseGuard;
import io.cosid.store.LeaseLostException;
import io.cosid.store.Namespace;
import io.cosid.store.NamespaceConflictException;
import io.cosid.store.SlotLease;
import io.cosid.store.SlotLeaseStore;
import io.cosid.store.SlotsExhaustedException;
import io.cosid.store.StoreArguments;
import io.cosid.store.StoreConfig;
import io.cosid.store.Ticker;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import me.ahoo.cosid.CosIdException;
import me.ahoo.cosid.machine.InstanceId;
import me.ahoo.cosid.machine.MachineIdDistributor;
import me.ahoo.cosid.machine.MachineIdLostException;
import me.ahoo.cosid.machine.MachineIdOverflowException;
import me.ahoo.cosid.machine.MachineState;
import me.ahoo.cosid.machine.NotFoundMachineStateException;
import me.ahoo.cosid.snowflake.exception.ClockTooManyBackwardsException;
import org.jspecify.annotations.Nullable;

/**
 * CosId's {@link MachineIdDistributor} on a cosid-store {@link SlotLeaseStore}: a machine id is a
 * slot of the namespace, held as a lease with a fence and a timestamp window that never overlaps
 * another holder's (docs/contract.md, "Terms and leases").
 *
 * <pre>{@code
 * StoreMachineIdDistributor distributor =
 *         new StoreMachineIdDistributor(store.slots(), Duration.ofSeconds(2));
 * InstanceId instance = InstanceId.of("order-service-0", true);
 * MachineState state = distributor.distribute("orders", 10, instance, Duration.ofMinutes(5));
 * SnowflakeId ids = new LeaseBoundSnowflakeId(
 *         new MillisecondSnowflakeId(state.getMachineId()), distributor, "orders", instance);
 * MachineIdGuarder guarder = new DefaultMachineIdGuarder(distributor, Duration.ofMinutes(5));
 * guarder.register("orders", instance);
 * guarder.start();
 * }</pre>
 *
 * <ul>
 *   <li>{@link #distribute} always asks the store: it defines the namespace with {@code
 *       2^machineBit} slots (machineBit 1..16), acquires a slot with CosId's {@link InstanceId} as
 *       the owner key (a restarted instance with a stable id gets its last slot back when it is
 *       free), and waits until this instance's clock reaches the lease's floor before it returns,
 *       so the first ID is stamped inside the window. A call while this process holds the id renews
 *       it in the store instead of answering from memory. If anything fails after the acquire, the
 *       lease is released before the exception leaves.
 *   <li>{@link #guard} renews the lease (same fence); a lease the store gave to another holder is a
 *       {@link MachineIdLostException}, and stays lost.
 *   <li>{@link #revert} releases the lease, declaring the highest timestamp its {@link
 *       LeaseBoundSnowflakeId}s handed out, so a restart stamps from just above it. With CosId's
 *       own generators nothing records what they stamped, so the release declares nothing and the
 *       whole window stays used: the next holder of the slot (a restart of this instance too) waits
 *       in {@code distribute} until its clock reaches the old lease's ceiling, up to the ttl plus
 *       the tolerance after the last renew. Wrap every generator of the machine id in {@link
 *       LeaseBoundSnowflakeId} to restart without that wait.
 * </ul>
 *
 * <p><b>Ttl.</b> The lease's ttl is the {@code safeGuardDuration} given to {@code distribute} (1 ms
 * to 1 day); renew it well within that, e.g. a guarder whose delay is a third of it. CosId's {@link
 * MachineIdDistributor#FOREVER_SAFE_GUARD_DURATION} has no finite lease to stand for: it becomes
 * the {@code foreverTtl} of the constructor ({@link #DEFAULT_FOREVER_TTL} unless given). An
 * instance that stops without {@code revert} keeps its slot until that ttl ran out; a stable
 * instance that comes back later gets the slot back through the store's owner index, which is how
 * "stable" is honoured here.
 *
 * <p><b>Tolerance and the wait for the floor.</b> The namespace is defined with the {@code
 * tolerance} of the constructor, the clock skew allowed between instances and the store. A new
 * holder's floor can lie ahead of the store's clock by what the previous term kept (at most its
 * ceiling: the previous holder's ttl plus one tolerance), and this instance's clock up to one
 * tolerance behind the store's, so {@code distribute} waits up to that reserve plus twice the
 * tolerance for its clock to reach the floor, renewing the lease every third of its ttl meanwhile.
 * A floor further ahead means this clock is out of tolerance: the lease is released (declaring its
 * floor, since nothing was stamped under it) and {@code distribute} throws CosId's {@link
 * ClockTooManyBackwardsException}. Give CosId's own {@code ClockSyncSnowflakeId} no part in this:
 * the wait is done here.
 *
 * <p>Thread-safe. Calls for one namespace and instance run one at a time; others run in parallel.
 */
public final class StoreMachineIdDistributor implements MachineIdDistributor {

    /** The widest machine id: 16 bits, the store's largest namespace (65,536 slots). */
    public static final int MAX_MACHINE_BIT = 16;

    /** The lease ttl that stands for CosId's "forever" unless the constructor says otherwise. */
    public static final Duration DEFAULT_FOREVER_TTL = Duration.ofMinutes(10);

    /**
     * The clock skew tolerance to build a distributor with when nobody chose one: {@link
     * Namespace#DEFAULT_TOLERANCE}, also the default of the Spring Boot starter's {@code
     * cosid-store.machine.tolerance} and of {@code cosid-store migrate --from-cosid-zookeeper
     * --tolerance}, so that what one defines the other accepts.
     */
    public static final Duration DEFAULT_TOLERANCE = Namespace.DEFAULT_TOLERANCE;

    private final SlotLeaseStore slots;
    private final Duration tolerance;
    private final Duration foreverTtl;
    private final InstantSource clock;
    private final Pause pause;
    private final Ticker ticker;
    private final ConcurrentMap<Holder, HeldMachineId> held = new ConcurrentHashMap<>();
    private final ConcurrentMap<Holder, Object> locks = new ConcurrentHashMap<>();

    /**
     * A distributor on {@code slots} whose namespaces allow {@code tolerance} of clock skew, with
     * {@link #DEFAULT_FOREVER_TTL} for CosId's "forever".
     *
     * @param slots the store's slot leases
     * @param tolerance the clock skew allowed between instances and the store, whole milliseconds,
     *     at least zero; also the tolerance of every namespace this distributor defines
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if the tolerance breaks its rule
     */
    public StoreMachineIdDistributor(SlotLeaseStore slots, Duration tolerance) {
        this(slots, tolerance, DEFAULT_FOREVER_TTL);
    }

    /**
     * A distributor on {@code slots} whose namespaces allow {@code tolerance} of clock skew.
     *
     * @param slots the store's slot leases
     * @param tolerance the clock skew allowed between instances and the store, whole milliseconds,
     *     at least zero
     * @param foreverTtl the lease ttl used when CosId asks for {@link
     *     MachineIdDistributor#FOREVER_SAFE_GUARD_DURATION}, 1 ms to 1 day
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if the tolerance or ttl breaks its rule
     */
    public StoreMachineIdDistributor(
            SlotLeaseStore slots, Duration tolerance, Duration foreverTtl) {
        this(slots, tolerance, foreverTtl, InstantSource.system(), Pause.SLEEP, Ticker.system());
    }

    StoreMachineIdDistributor(
            SlotLeaseStore slots,
            Duration tolerance,
            Duration foreverTtl,
            InstantSource clock,
            Pause pause,
            Ticker ticker) {
        this.slots = Objects.requireNonNull(slots, "slots must not be null");
        this.tolerance =
                StoreArguments.requireTolerance(
                        Objects.requireNonNull(tolerance, "tolerance must not be null"));
        this.foreverTtl =
                StoreArguments.requireTtl(
                        Objects.requireNonNull(foreverTtl, "foreverTtl must not be null"));
        this.clock = clock;
        this.pause = pause;
        this.ticker = ticker;
    }

    /**
     * Acquires a machine id for {@code instanceId} in {@code namespace}, or confirms in the store
     * the one this process holds; returns once this instance's clock has reached the lease's floor.
     *
     * @param namespace the namespace, one store segment (no {@code /})
     * @param machineBit the machine id's width, 1..{@value #MAX_MACHINE_BIT}; the namespace gets
     *     {@code 2^machineBit} slots
     * @param instanceId the instance; its id string is the lease's owner key
     * @param safeGuardDuration the lease's ttl (1 ms to 1 day), or CosId's "forever"
     * @return the machine id, with this instance's clock reading when it was handed out as last
     *     timestamp (at or after the lease's floor)
     * @throws MachineIdOverflowException if all {@code 2^machineBit} slots are held
     * @throws IllegalArgumentException if an argument breaks its rule; nothing is written
     * @throws ClockTooManyBackwardsException if this instance's clock is further behind the lease's
     *     floor than the previous term's reserve plus twice the tolerance; the lease was released
     * @throws io.cosid.store.NamespaceConflictException if the namespace exists with more slots or
     *     another tolerance, also while this process holds a machine id in it; nothing is written
     * @throws io.cosid.store.StoreException if the store fails; a lease acquired before the failure
     *     was released (or, if that failed too, expires after its ttl)
     */
    @Override
    public MachineState distribute(
            String namespace, int machineBit, InstanceId instanceId, Duration safeGuardDuration)
            throws MachineIdOverflowException {
        Holder holder = Holder.of(namespace, instanceId);
        int limit = limitOf(machineBit);
        String ownerKey = ownerKeyOf(instanceId);
        Duration ttl = ttlOf(safeGuardDuration);
        synchronized (lockOf(holder)) {
            // First on every path: a namespace with more slots than 2^machineBit is refused
            // before anything is written, also while this process holds an id in it.
            define(holder.namespace(), limit);
            HeldMachineId current = held.get(holder);
            if (current != null && !current.isEnded()) {
                try {
                    current.renew(slots);
                    return MachineState.of(current.machineId(), clock.millis());
                } catch (LeaseLostException lost) {
                    current.lose("was lost: " + lost.getMessage());
                }
            }
            long sent = ticker.nanos();
            SlotLease lease;
            try {
                lease = slots.acquire(holder.namespace(), ownerKey, ttl);
            } catch (SlotsExhaustedException exhausted) {
                MachineIdOverflowException overflow =
                        new MachineIdOverflowException(limit, instanceId);
                overflow.initCause(exhausted);
                throw overflow;
            }
            LeaseGuard guard = LeaseGuard.of(lease, sent, ticker);
            try {
                guard = awaitFloor(guard);
            } catch (RuntimeException | Error failure) {
                releaseAfter(failure, guard);
                if (failure.getCause() instanceof InterruptedException) {
                    // restored only now: with the flag set, the release itself would be cut short
                    Thread.currentThread().interrupt();
                }
                throw failure;
            }
            HeldMachineId next = new HeldMachineId(holder.namespace(), instanceId, guard);
            held.put(holder, next);
            return MachineState.of(next.machineId(), clock.millis());
        }
    }

    /**
     * Renews the lease of the machine id this process holds for {@code instanceId} (same fence, the
     * ttl given to {@code distribute}).
     *
     * @param namespace the namespace
     * @param instanceId the instance
     * @param safeGuardDuration not used: the ttl is the one given to {@code distribute}
     * @throws NotFoundMachineStateException if this process holds no machine id for it
     * @throws MachineIdLostException if the term ended in the store (another holder took the slot
     *     after the lease expired, or an operator advanced it); it stays lost until {@code revert}
     *     and a new {@code distribute}
     * @throws io.cosid.store.StoreException if the store fails; the lease stands as it was
     */
    @Override
    public void guard(String namespace, InstanceId instanceId, Duration safeGuardDuration)
            throws NotFoundMachineStateException, MachineIdLostException {
        Holder holder = Holder.of(namespace, instanceId);
        synchronized (lockOf(holder)) {
            HeldMachineId current = held.get(holder);
            if (current == null) {
                throw new NotFoundMachineStateException(holder.namespace(), instanceId);
            }
            if (!current.isEnded()) {
                try {
                    current.renew(slots);
                    return;
                } catch (LeaseLostException lost) {
                    current.lose("was lost: " + lost.getMessage());
                }
            }
            MachineIdLostException lostException =
                    new MachineIdLostException(
                            holder.namespace(),
                            instanceId,
                            MachineState.of(current.machineId(), clock.millis()));
            lostException.initCause(
                    new MachineIdLeaseException(current.refusal(current.machineId(), 0, 0)));
            throw lostException;
        }
    }

    /**
     * Releases the machine id this process holds for {@code instanceId}, declaring the highest
     * timestamp its {@link LeaseBoundSnowflakeId}s handed out; from this call on they hand out no
     * ID. If none of them handed out an ID (CosId's own generators record nothing), the release
     * declares nothing and the next holder's floor is the lease's ceiling. A lease the store had
     * ended already needs no release.
     *
     * @param namespace the namespace
     * @param instanceId the instance
     * @throws NotFoundMachineStateException if this process holds no machine id for it
     * @throws io.cosid.store.StoreException if the store fails; the lease then expires after its
     *     ttl, and its generators stay stopped
     */
    @Override
    public void revert(String namespace, InstanceId instanceId)
            throws NotFoundMachineStateException {
        Holder holder = Holder.of(namespace, instanceId);
        synchronized (lockOf(holder)) {
            HeldMachineId current = held.remove(holder);
            if (current == null) {
                throw new NotFoundMachineStateException(holder.namespace(), instanceId);
            }
            if (current.isEnded()) {
                return;
            }
            try {
                current.revert(slots);
            } catch (LeaseLostException alreadyOver) {
                // The store ended the term before this release: nothing of ours is left to free.
                current.lose("was lost before it was reverted: " + alreadyOver.getMessage());
            }
        }
    }

    /**
     * The lease this process holds for {@code instanceId}, for monitoring; not a substitute for
     * {@link #guard}, which asks the store.
     *
     * @param namespace the namespace
     * @param instanceId the instance
     * @return the lease as last acquired or renewed, or null if this process holds none or it ended
     */
    public @Nullable SlotLease leaseOf(String namespace, InstanceId instanceId) {
        HeldMachineId current = held.get(Holder.of(namespace, instanceId));
        return current == null || current.isEnded() ? null : current.lease();
    }

    /** The holding that generators of {@code instanceId} check, or null if there is none. */
    @Nullable HeldMachineId holding(String namespace, InstanceId instanceId) {
        return held.get(Holder.of(namespace, instanceId));
    }

    private Object lockOf(Holder holder) {
        return locks.computeIfAbsent(holder, h -> new Object());
    }

    /**
     * Waits until this instance's clock reaches the lease's floor. The floor may lie ahead of the
     * store's clock by what the previous term kept (up to its ceiling, when its release declared
     * nothing), and this clock may be up to one tolerance behind the store's, which may be up to
     * one tolerance behind the previous holder's: so the wait allowed is that reserve plus twice
     * the tolerance. Renews at least every third of the ttl while waiting, so that the lease
     * outlives a long wait, and after the wait, so that the lease handed out is fresh.
     */
    private LeaseGuard awaitFloor(LeaseGuard guard) {
        SlotLease lease = guard.lease();
        long floor = lease.floor().toEpochMilli();
        long now = clock.millis();
        if (now >= floor) {
            return guard;
        }
        // A new term's expiry is the store's now at the acquire plus the ttl (docs/contract.md).
        long storeNow = lease.expiresAt().toEpochMilli() - lease.ttl().toMillis();
        long allowed = Math.max(0, floor - storeNow) + 2 * tolerance.toMillis();
        long deadline = ticker.nanos() + Duration.ofMillis(allowed).toNanos();
        long renewEvery = Math.max(1, lease.ttl().toMillis() / 3);
        while (now < floor) {
            if (floor - now > allowed || ticker.nanos() - deadline > 0) {
                throw new ClockTooManyBackwardsException(floor, now, allowed);
            }
            try {
                pause.sleep(Duration.ofMillis(Math.min(floor - now, renewEvery)));
            } catch (InterruptedException interrupted) {
                throw new CosIdException(
                        "interrupted while waiting for the floor "
                                + lease.floor()
                                + " of machine id "
                                + lease.slot()
                                + " in namespace '"
                                + lease.namespace()
                                + "'",
                        interrupted);
            }
            guard = guard.renew(slots);
            now = clock.millis();
        }
        return guard;
    }

    /**
     * Releases a lease {@code distribute} acquired but did not hand out: nobody stamped under it,
     * which this distributor knows, so it declares the floor and the slot's window is not spent.
     */
    private void releaseAfter(Throwable failure, LeaseGuard guard) {
        try {
            slots.release(guard.lease(), guard.lease().floor());
        } catch (RuntimeException releaseFailure) {
            failure.addSuppressed(releaseFailure);
        }
    }

    /**
     * Defines the namespace, or refuses with a conflict that says which setting to change: the
     * store's own message names the values, not where they come from.
     */
    private void define(String namespace, int limit) {
        try {
            slots.define(namespace, limit, tolerance);
        } catch (NamespaceConflictException conflict) {
            Namespace existing = conflict.existing();
            String advice;
            if (!existing.tolerance().equals(tolerance)) {
                advice =
                        "the tolerance cannot change: give this distributor the namespace's"
                                + " tolerance, "
                                + StoreConfig.formatDuration(existing.tolerance())
                                + " (Spring Boot: cosid-store.machine.tolerance; a migration"
                                + " from CosId: --tolerance; both default to "
                                + StoreConfig.formatDuration(DEFAULT_TOLERANCE)
                                + ")";
            } else {
                advice =
                        "the limit can only be raised: a machineBit of at least "
                                + (32 - Integer.numberOfLeadingZeros(existing.limit() - 1))
                                + " fits the namespace's "
                                + existing.limit()
                                + " machine ids";
            }
            NamespaceConflictException explained =
                    new NamespaceConflictException(existing, conflict.requested(), advice);
            explained.initCause(conflict);
            throw explained;
        }
    }

    private static int limitOf(int machineBit) {
        if (machineBit < 1 || machineBit > MAX_MACHINE_BIT) {
            throw new IllegalArgumentException(
                    "machineBit must be 1.."
                            + MAX_MACHINE_BIT
                            + " (a namespace has at most "
                            + StoreArguments.MAX_LIMIT
                            + " slots), was "
                            + machineBit);
        }
        return MachineIdDistributor.totalMachineIds(machineBit);
    }

    private static String ownerKeyOf(InstanceId instanceId) {
        String id = instanceId.getInstanceId();
        try {
            return StoreArguments.requireOwnerKey(id);
        } catch (IllegalArgumentException invalid) {
            throw new IllegalArgumentException(
                    "CosId's InstanceId '"
                            + id
                            + "' cannot be the lease's owner key: "
                            + invalid.getMessage(),
                    invalid);
        }
    }

    private Duration ttlOf(Duration safeGuardDuration) {
        if (safeGuardDuration == null) {
            throw new IllegalArgumentException("safeGuardDuration must not be null");
        }
        if (FOREVER_SAFE_GUARD_DURATION.equals(safeGuardDuration)) {
            return foreverTtl;
        }
        try {
            return StoreArguments.requireTtl(safeGuardDuration);
        } catch (IllegalArgumentException invalid) {
            throw new IllegalArgumentException(
                    "safeGuardDuration is the lease's ttl and must be 1 ms to "
                            + StoreArguments.MAX_TTL.toHours()
                            + " hours in whole milliseconds, or CosId's"
                            + " FOREVER_SAFE_GUARD_DURATION; was "
                            + StoreConfig.formatDuration(safeGuardDuration),
                    invalid);
        }
    }

    /** One instance in one namespace: the key of everything this distributor keeps. */
    private record Holder(String namespace, InstanceId instanceId) {

        static Holder of(String namespace, InstanceId instanceId) {
            if (instanceId == null) {
                throw new IllegalArgumentException("instanceId must not be null");
            }
            return new Holder(StoreArguments.requireNamespace(namespace), instanceId);
        }
    }
}
