package io.cosid.store.zookeeper.internal.slots;

import static io.cosid.store.StoreArguments.requireFence;
import static io.cosid.store.StoreArguments.requireInstant;
import static io.cosid.store.StoreArguments.requireLease;
import static io.cosid.store.StoreArguments.requireNamespace;
import static io.cosid.store.StoreArguments.requireSlot;

import io.cosid.store.LeaseLostException;
import io.cosid.store.SlotBusyException;
import io.cosid.store.SlotLease;
import io.cosid.store.SlotView;
import io.cosid.store.StoreCorruptedException;
import io.cosid.store.StoreObserver.Operation;
import io.cosid.store.StoreTimeoutException;
import io.cosid.store.StoreUnavailableException;
import io.cosid.store.spi.Deadline;
import io.cosid.store.spi.OperationNames;
import io.cosid.store.spi.Settlements;
import io.cosid.store.zookeeper.internal.slots.StampedReads.Stamped;
import io.cosid.store.zookeeper.internal.wire.ConditionalWrite;
import io.cosid.store.zookeeper.internal.wire.Failures;
import io.cosid.store.zookeeper.internal.wire.NodeChange;
import io.cosid.store.zookeeper.internal.wire.NodePaths;
import io.cosid.store.zookeeper.internal.wire.Reply;
import io.cosid.store.zookeeper.internal.wire.StoreLifecycle;
import io.cosid.store.zookeeper.internal.wire.WriteOutcome;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

/**
 * Writing slot terms: renew, release and advance, each a conditional write of the slot over the
 * state this store last saw, and the bookkeeping of what this store wrote. A write whose outcome is
 * unknown is settled by reading the slot back: it is this store's only if the stored nonce is the
 * one that write carried.
 */
@Singleton
final class SlotTerms {

    private final ConditionalWrite conditionalWrite;
    private final Failures failures;
    private final NodePaths paths;
    private final StoreLifecycle lifecycle;
    private final Settlements settlements;
    private final SlotReads slotReads;
    private final Namespaces namespaces;
    private final StampedReads stamped;

    /** Each slot as this store last wrote it, while that is the last state it knows of. */
    private final Map<String, SlotSeen> written = new ConcurrentHashMap<>();

    @Inject
    SlotTerms(
            ConditionalWrite conditionalWrite,
            Failures failures,
            NodePaths paths,
            StoreLifecycle lifecycle,
            Settlements settlements,
            SlotReads slotReads,
            Namespaces namespaces,
            StampedReads stamped) {
        this.conditionalWrite = conditionalWrite;
        this.failures = failures;
        this.paths = paths;
        this.lifecycle = lifecycle;
        this.settlements = settlements;
        this.slotReads = slotReads;
        this.namespaces = namespaces;
        this.stamped = stamped;
    }

    SlotLease renew(SlotLease lease) {
        requireLease(lease);
        Deadline deadline =
                lifecycle.start(
                        Operation.SLOT_RENEW,
                        OperationNames.renew(lease.namespace(), lease.slot()));
        SlotSeen mine =
                changeTerm(
                        deadline,
                        lease,
                        Change.RENEW,
                        current ->
                                current.data()
                                        .renewed(current.mtime(), UUID.randomUUID().toString()));
        return mine.data().lease(lease.namespace(), lease.slot(), mine.mtime());
    }

    Instant release(SlotLease lease) {
        requireLease(lease);
        return endTerm(lease, Long.MAX_VALUE);
    }

    Instant release(SlotLease lease, Instant stampedBefore) {
        requireLease(lease);
        requireInstant("stampedBefore", stampedBefore);
        return endTerm(lease, stampedBefore.toEpochMilli());
    }

    /**
     * Ends the term; {@code stampedBefore} {@link Long#MAX_VALUE} declares nothing: the whole
     * window stays used. A release that ran out of time (or connection) may not have landed, and
     * its holder has stopped using the lease: the store goes on trying in the background, so that
     * the slot is free before its ttl runs out.
     */
    private Instant endTerm(SlotLease lease, long stampedBefore) {
        String operation = OperationNames.release(lease.namespace(), lease.slot());
        Deadline deadline = lifecycle.start(Operation.SLOT_RELEASE, operation);
        try {
            return endTerm(deadline, lease, stampedBefore);
        } catch (StoreTimeoutException | StoreUnavailableException e) {
            settlements.later(
                    "finishing a timed-out " + operation,
                    lease.ttl(),
                    d -> {
                        try {
                            endTerm(d, lease, stampedBefore);
                        } catch (LeaseLostException lost) {
                            // another term started: nothing is left to finish
                        }
                        return true;
                    });
            throw e;
        }
    }

    Instant endTerm(Deadline deadline, SlotLease lease, long stampedBefore) {
        SlotSeen ended =
                changeTerm(
                        deadline,
                        lease,
                        Change.RELEASE,
                        current ->
                                current.data()
                                        .released(
                                                current.mtime(),
                                                UUID.randomUUID().toString(),
                                                stampedBefore));
        return Instant.ofEpochMilli(ended.data().effectiveNextFloor(ended.mtime()));
    }

    /** What a write of the lease's own term does: a release takes a term ended already as done. */
    private enum Change {
        RENEW,
        RELEASE
    }

    /**
     * Writes the lease's own term, changed by {@code change}, until the write lands; returns the
     * slot as written. For a release, a term released or ended already is returned as it is
     * (release is idempotent).
     *
     * <p>{@link LeaseLostException} promises that nothing was written. Once a write of this
     * operation had an unknown outcome that its read-back could not settle ({@code unsettled}), a
     * term found over may have been ended (or extended) by that very write, so the answer is an
     * unknown outcome instead. Why it matters: a release that landed, whose reply was lost while
     * the next holder took the slot, would otherwise be reported as "lost, nothing written", and
     * the holder would not know its window was cut at the release bound.
     */
    private SlotSeen changeTerm(
            Deadline deadline, SlotLease lease, Change kind, Function<SlotSeen, SlotData> change) {
        String path = paths.slot(lease.namespace(), lease.slot());
        String location = slotReads.location(lease.namespace(), lease.slot());
        boolean unsettled = false;
        while (deadline.hasTimeLeft()) {
            SlotSeen current = currentTerm(deadline, lease, kind, unsettled);
            if (current.data().state() != SlotData.State.HELD) {
                return current;
            }
            SlotData next = change.apply(current);
            byte[] data = next.encode();
            WriteOutcome w =
                    conditionalWrite.send(
                            deadline,
                            location,
                            NodeChange.replace(path, current.version(), current.stored(), data));
            if (w.landed()) {
                // a setData reply always carries the node's Stat
                return landedTerm(lease, current, next, data, Objects.requireNonNull(w.stat(0)));
            }
            written.remove(path);
            switch (w.kind()) {
                case UNKNOWN -> {
                    SlotSeen mine =
                            readBack(deadline, lease.namespace(), lease.slot(), next.nonce());
                    if (mine != null) {
                        return mine;
                    }
                    unsettled = true;
                }
                case PARENT_MISSING ->
                        namespaces.createMissingBookkeeping(
                                deadline, w.missingParent(), lease.namespace());
                case LANDED, LOST_RACE, NODE_GONE, NOT_ALLOWED -> {
                    // the node changed or is gone: the next read decides
                }
            }
        }
        throw deadline.expired(null);
    }

    /**
     * The slot as this store last wrote it when that is still the lease's term, else read; a lease
     * whose term is over is lost. For release, a term already released or ended is returned as it
     * is.
     *
     * @param unsettled whether a write of this operation may have landed unseen (see {@link
     *     #changeTerm})
     */
    private SlotSeen currentTerm(
            Deadline deadline, SlotLease lease, Change kind, boolean unsettled) {
        String path = paths.slot(lease.namespace(), lease.slot());
        SlotSeen cached = written.get(path);
        // The conditional write that follows verifies the cached state is still there, by its data
        // version. A node deleted and created again starts over at version 0, so a cached version 0
        // is read first.
        if (cached != null
                && cached.version() != 0
                && cached.data().isTermOf(lease)
                && cached.data().state() == SlotData.State.HELD) {
            return cached;
        }
        // every other answer (lost, already released) is decided on what the server holds now
        SlotSeen current = slotReads.read(deadline, lease.namespace(), lease.slot());
        SlotData data = current.data();
        if (data.isTermOf(lease)
                && (data.state() == SlotData.State.HELD || kind == Change.RELEASE)) {
            return current;
        }
        String reason =
                data.isTermOf(lease)
                        ? "the term was released or ended"
                        : "the slot's current term has fence "
                                + data.fence()
                                + " (owner '"
                                + data.lastOwner()
                                + "')";
        LeaseLostException lost =
                new LeaseLostException(lease.namespace(), lease.slot(), lease.fence(), reason);
        if (unsettled) {
            throw failures.outcomeUnknown(
                    deadline, "the lease's term is over now (" + reason + ")", lost);
        }
        throw lost;
    }

    /**
     * A renew or release that landed. A node deleted and created again behind the store's back,
     * then written up to the very version this store wrote last, takes the write: the czxid tells,
     * and the write is refused.
     */
    private SlotSeen landedTerm(
            SlotLease lease, SlotSeen current, SlotData next, byte[] data, Stat stat) {
        String path = paths.slot(lease.namespace(), lease.slot());
        if (stat.getCzxid() != current.czxid()) {
            written.remove(path);
            throw new StoreCorruptedException(
                    slotReads.location(lease.namespace(), lease.slot()),
                    "it was deleted and created"
                            + " again behind this store's back (czxid "
                            + stat.getCzxid()
                            + ", expected "
                            + current.czxid()
                            + ") and written up to the very version this store wrote last, so this"
                            + " store's "
                            + next.state().name().toLowerCase(Locale.ROOT)
                            + " of fence "
                            + next.fence()
                            + " landed on it");
        }
        return remember(lease.namespace(), lease.slot(), next, data, stat);
    }

    SlotView advance(String namespace, int slot, long fenceAtLeast, Instant floorAtLeast) {
        requireNamespace(namespace);
        requireFence(fenceAtLeast);
        requireInstant("floorAtLeast", floorAtLeast);
        Deadline deadline =
                lifecycle.start(
                        Operation.SLOT_ADVANCE, OperationNames.slotAdvance(namespace, slot));
        requireSlot(slot, namespaces.namespaceWith(deadline, namespace, slot));
        String path = paths.slot(namespace, slot);
        // values already reached are decided on a read, so that a no-op writes nothing (its clock
        // included)
        SlotSeen first = slotReads.read(deadline, namespace, slot);
        if (first.data().isAtLeast(first.mtime(), fenceAtLeast, floorAtLeast)) {
            return first.data().view(namespace, slot, first.mtime());
        }
        while (deadline.hasTimeLeft()) {
            Stamped start =
                    stamped.send(
                            deadline,
                            namespace,
                            paths.owners(namespace),
                            List.of(Op.getData(path)));
            SlotSeen current = slotReads.decode(deadline, namespace, slot, start.second());
            SlotData data = current.data();
            if (data.isAtLeast(current.mtime(), fenceAtLeast, floorAtLeast)) {
                return data.view(namespace, slot, current.mtime());
            }
            requireFree(namespace, slot, current, start.now());
            SlotData advanced =
                    data.advanced(
                            current.mtime(),
                            fenceAtLeast,
                            floorAtLeast,
                            UUID.randomUUID().toString());
            byte[] bytes = advanced.encode();
            WriteOutcome w =
                    conditionalWrite.send(
                            deadline,
                            slotReads.location(namespace, slot),
                            slotChange(path, current, bytes));
            if (w.landed()) {
                return advanced.view(
                        namespace,
                        slot,
                        written(deadline, namespace, slot, advanced, bytes, w).mtime());
            }
            written.remove(path);
            switch (w.kind()) {
                case PARENT_MISSING ->
                        namespaces.createMissingBookkeeping(deadline, w.missingParent(), namespace);
                case LANDED, LOST_RACE, UNKNOWN, NODE_GONE, NOT_ALLOWED -> {
                    // read again: an unknown advance that landed reads as reached
                }
            }
        }
        throw deadline.expired(null);
    }

    /** An advance may write only a slot nobody holds now. */
    private static void requireFree(String namespace, int slot, SlotSeen current, long now) {
        SlotData data = current.data();
        if (data.isHeldAt(now, current.mtime())) {
            throw new SlotBusyException(
                    namespace,
                    slot,
                    data.owner(),
                    Instant.ofEpochMilli(data.expiresAt(current.mtime())));
        }
    }

    // ---- writes ----

    /**
     * The change that writes a slot: create a node that does not exist, else compare-and-set it.
     */
    static NodeChange slotChange(String path, SlotSeen current, byte[] data) {
        return !current.exists()
                ? NodeChange.create(path, data)
                : NodeChange.replace(path, current.version(), current.stored(), data);
    }

    /**
     * Remembers a slot write that landed; the slot is the write's first change. All changes of one
     * write share one transaction and its time, so the mtime comes from the slot's own Stat or any
     * other change's (through a chroot the client drops the Stat of a create inside a multi); a
     * node the write created is at version 0. Only when no change carries a Stat is the slot read
     * back.
     */
    SlotSeen written(
            Deadline deadline, String ns, int slot, SlotData data, byte[] raw, WriteOutcome w) {
        Stat own = w.stat(0);
        if (own != null) {
            return remember(ns, slot, data, raw, own);
        }
        Stat any = w.anyStat();
        if (any != null) {
            Stat created = new Stat();
            created.setMtime(any.getMtime());
            created.setMzxid(any.getMzxid());
            created.setCzxid(any.getMzxid());
            created.setVersion(0);
            return remember(ns, slot, data, raw, created);
        }
        Reply r = slotReads.readOne(deadline, ns, slot);
        if (!r.ok()) {
            throw failures.unexpected(deadline, r);
        }
        return remember(ns, slot, data, raw, r.stat());
    }

    private SlotSeen remember(String ns, int slot, SlotData data, byte[] raw, Stat stat) {
        slotReads.check(ns, slot, data, stat);
        SlotSeen seen = SlotSeen.of(data, stat, raw);
        written.put(paths.slot(ns, slot), seen);
        return seen;
    }

    /** Settles an unknown outcome: the slot is ours only if it holds this attempt's nonce. */
    @Nullable SlotSeen readBack(Deadline deadline, String ns, int slot, String nonce) {
        Reply r = slotReads.readOne(deadline, ns, slot);
        if (!r.ok()) {
            return null;
        }
        SlotSeen seen = slotReads.decode(deadline, ns, slot, r);
        if (!seen.data().nonce().equals(nonce)) {
            return null;
        }
        written.put(paths.slot(ns, slot), seen);
        return seen;
    }
}
