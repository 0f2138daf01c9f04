package io.cosid.store.cosid;

import io.cosid.store.LeaseGuard;
import io.cosid.store.SlotLease;
import io.cosid.store.SlotLeaseStore;
import java.time.Instant;
import me.ahoo.cosid.machine.InstanceId;
import org.jspecify.annotations.Nullable;

/**
 * The machine id one instance holds in one namespace: the guard of its current lease, and whether
 * the term ended (lost to a takeover, or reverted). The distributor changes it under its per-key
 * lock; {@link LeaseBoundSnowflakeId} reads it on every ID without a lock, so its state is two
 * volatile fields.
 */
final class HeldMachineId {

    private final String namespace;
    private final InstanceId instanceId;
    private volatile LeaseGuard guard;

    /** Why the term is over, or null while it is held. */
    private volatile @Nullable String ended;

    HeldMachineId(String namespace, InstanceId instanceId, LeaseGuard guard) {
        this.namespace = namespace;
        this.instanceId = instanceId;
        this.guard = guard;
    }

    SlotLease lease() {
        return guard.lease();
    }

    int machineId() {
        return guard.lease().slot();
    }

    /** Whether the term is over; it never starts again (a new distribute makes a new holding). */
    boolean isEnded() {
        return ended != null;
    }

    /**
     * Renews the lease in the store.
     *
     * @throws io.cosid.store.LeaseLostException if the term ended in the store
     */
    void renew(SlotLeaseStore slots) {
        guard = guard.renew(slots);
    }

    /**
     * Ends the term as reverted and releases it, declaring what its generators stamped.
     *
     * @throws io.cosid.store.LeaseLostException if the term had ended in the store already
     */
    void revert(SlotLeaseStore slots) {
        ended = "was reverted";
        guard.release(slots);
    }

    void lose(String why) {
        ended = why;
    }

    /**
     * Whether a generator with {@code machineId} may hand out an ID stamped from {@code
     * firstMillis} to {@code lastMillis} (both included): the term is held, the machine id is this
     * term's, the lease is usable by the monotonic clock and both ends lie in its window. A {@code
     * true} answer is recorded as stamped, for the release bound.
     */
    boolean mayStamp(int machineId, long firstMillis, long lastMillis) {
        LeaseGuard current = guard;
        return ended == null
                && machineId == current.lease().slot()
                && current.mayStamp(firstMillis)
                && (lastMillis == firstMillis || current.mayStamp(lastMillis));
    }

    /**
     * Why {@link #mayStamp} said no, in words for an exception (read again, so that a race with a
     * renew may word it by the newer lease).
     */
    String refusal(int machineId, long firstMillis, long lastMillis) {
        LeaseGuard current = guard;
        SlotLease lease = current.lease();
        String what =
                "machine id "
                        + lease.slot()
                        + " of instance "
                        + instanceId.getInstanceId()
                        + " in namespace '"
                        + namespace
                        + "' (fence "
                        + lease.fence()
                        + ")";
        String reason;
        @Nullable String over = ended;
        if (over != null) {
            reason = what + " " + over + "; this generator hands out no more IDs";
        } else if (machineId != lease.slot()) {
            reason =
                    "this generator stamps machine id "
                            + machineId
                            + " but "
                            + what
                            + " is held now; build a new generator for it";
        } else if (current.isReleased()) {
            reason = what + " was released; this generator hands out no more IDs";
        } else if (!current.isUsable()) {
            reason =
                    what
                            + " was not renewed within its ttl of "
                            + lease.ttl().toMillis()
                            + " ms (the guard did not run in time or could not reach the store);"
                            + " IDs resume after the guard renews it";
        } else if (firstMillis < lease.floor().toEpochMilli()) {
            reason =
                    "timestamp "
                            + Instant.ofEpochMilli(firstMillis)
                            + " is "
                            + (lease.floor().toEpochMilli() - firstMillis)
                            + " ms before the floor "
                            + lease.floor()
                            + " of "
                            + what
                            + ": this instance's clock is behind the window an earlier holder"
                            + " may have used";
        } else {
            reason =
                    "timestamp "
                            + Instant.ofEpochMilli(lastMillis)
                            + " is at or past the ceiling "
                            + lease.ceiling()
                            + " of "
                            + what
                            + ": this instance's clock is ahead of the window the lease covers";
        }
        return reason;
    }
}
