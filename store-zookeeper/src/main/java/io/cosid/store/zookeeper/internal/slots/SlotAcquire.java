package io.cosid.store.zookeeper.internal.slots;

import static io.cosid.store.StoreArguments.requireNamespace;
import static io.cosid.store.StoreArguments.requireOwnerKey;
import static io.cosid.store.StoreArguments.requireSlot;
import static io.cosid.store.StoreArguments.requireTtl;

import io.cosid.store.LeaseLostException;
import io.cosid.store.Namespace;
import io.cosid.store.SlotLease;
import io.cosid.store.SlotsExhaustedException;
import io.cosid.store.StoreCorruptedException;
import io.cosid.store.StoreException;
import io.cosid.store.StoreObserver.Operation;
import io.cosid.store.spi.Deadline;
import io.cosid.store.spi.NamespaceRules;
import io.cosid.store.spi.OperationNames;
import io.cosid.store.spi.Settlements;
import io.cosid.store.zookeeper.internal.slots.SlotChoice.Choice;
import io.cosid.store.zookeeper.internal.slots.StampedReads.Stamped;
import io.cosid.store.zookeeper.internal.wire.ConditionalWrite;
import io.cosid.store.zookeeper.internal.wire.NodeChange;
import io.cosid.store.zookeeper.internal.wire.NodePaths;
import io.cosid.store.zookeeper.internal.wire.Reply;
import io.cosid.store.zookeeper.internal.wire.StoreLifecycle;
import io.cosid.store.zookeeper.internal.wire.WriteOutcome;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.UUID;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.Op;
import org.jspecify.annotations.Nullable;

/**
 * Acquiring a slot (docs/contract.md, "SlotLeaseStore").
 *
 * <p>An acquire takes, in sequential round trips: (1) a write of the namespace's {@code .clock},
 * whose mtime is "now" and which, sent first on the session, is the read barrier for the one
 * read-only multi pipelined behind it: the namespace, the owner index, the first 32 slots and the
 * preferred slot (two requests); (2) only if needed, one read-only multi of the slots the index
 * lists outside those, then, only while none is free, rounds of 256, 1024, 4096, ... slots, each
 * one round trip of pipelined read-only multis of at most 256 slots; (3) one write multi that
 * compare-and-sets the chosen slot and writes the owner index. A fresh acquire with a free slot
 * among the first 32, or an owner-index hit there, is two round trips; a 1024-slot namespace with
 * 1000 slots held is four. A first attempt starts at the position of the attempts under way before
 * it (its ticket against the namespace's landing hint), and after a lost race the next attempt
 * spreads by its ticket ({@link HerdSpread}). Renew and release are one conditional write each when
 * this store wrote the slot last.
 *
 * <p>A lease write whose outcome is unknown is settled by reading the slot back: it is ours only if
 * the stored nonce is the one this attempt wrote.
 */
@Singleton
final class SlotAcquire {

    private final ConditionalWrite conditionalWrite;
    private final NodePaths paths;
    private final StoreLifecycle lifecycle;
    private final Settlements settlements;
    private final Namespaces namespaces;
    private final StampedReads stamped;
    private final SlotReads slotReads;
    private final SlotChoice slotChoice;
    private final SlotTerms terms;

    @Inject
    SlotAcquire(
            ConditionalWrite conditionalWrite,
            NodePaths paths,
            StoreLifecycle lifecycle,
            Settlements settlements,
            Namespaces namespaces,
            StampedReads stamped,
            SlotReads slotReads,
            SlotChoice slotChoice,
            SlotTerms terms) {
        this.conditionalWrite = conditionalWrite;
        this.paths = paths;
        this.lifecycle = lifecycle;
        this.settlements = settlements;
        this.namespaces = namespaces;
        this.stamped = stamped;
        this.slotReads = slotReads;
        this.slotChoice = slotChoice;
        this.terms = terms;
    }

    SlotLease acquire(String namespace, String ownerKey, Duration ttl) {
        return acquire(namespace, ownerKey, ttl, OptionalInt.empty());
    }

    SlotLease acquire(String namespace, String ownerKey, Duration ttl, int preferredSlot) {
        return acquire(namespace, ownerKey, ttl, OptionalInt.of(preferredSlot));
    }

    private SlotLease acquire(String ns, String ownerKey, Duration ttl, OptionalInt preferred) {
        requireNamespace(ns);
        requireOwnerKey(ownerKey);
        requireTtl(ttl);
        Deadline deadline =
                lifecycle.start(Operation.SLOT_ACQUIRE, OperationNames.acquire(ns, ownerKey));
        // a preferred slot outside the namespace is refused before anything is written (its clock
        // included)
        preferred.ifPresent(
                slot -> requireSlot(slot, namespaces.namespaceWith(deadline, ns, slot)));
        int lost = 0;
        int previousTicket = 0;
        while (deadline.hasTimeLeft()) {
            Attempt attempt = choose(deadline, ns, ownerKey, preferred, lost, previousTicket);
            previousTicket = attempt.start().ticket();
            Written written = write(deadline, ns, ownerKey, ttl, attempt);
            if (written.mine() != null) {
                return written.mine().data().lease(ns, attempt.slot(), written.mine().mtime());
            }
            WriteOutcome w = written.outcome();
            switch (w.kind()) {
                case LOST_RACE -> lost++; // another acquire took the slot or wrote the index first
                case PARENT_MISSING ->
                        namespaces.createMissingBookkeeping(deadline, w.missingParent(), ns);
                case LANDED, UNKNOWN, NODE_GONE, NOT_ALLOWED -> {
                    // unknown: the read-back did not find this attempt's nonce, so the write did
                    // not land; a node gone is reported by the next read
                }
            }
            // start again with a fresh clock
        }
        throw deadline.expired(null);
    }

    /** What one attempt read and chose: its first round trip, the owner index and the slot. */
    private record Attempt(Stamped start, Reply index, List<Integer> owned, Choice choice) {

        int slot() {
            return choice.slot();
        }
    }

    /** How one attempt's write ended: the slot as this attempt wrote it, if it did. */
    private record Written(WriteOutcome outcome, @Nullable SlotSeen mine) {}

    /**
     * Round trip 1 (and the further reads {@link SlotChoice} needs): the clock write, the owner
     * index, the landing hint and the first batch of slots, then the choice of a free slot. An
     * attempt refused here finishes its ticket ({@link StampedReads#finished}).
     */
    private Attempt choose(
            Deadline deadline,
            String ns,
            String ownerKey,
            OptionalInt preferred,
            int lost,
            int previousTicket) {
        String ownerPath = paths.owner(ns, ownerKey);
        List<Integer> firstBatch = SlotChoice.firstBatch(namespaces.lastRead(ns), preferred);
        List<Op> firstReads = new ArrayList<>();
        firstReads.add(Op.getData(ownerPath));
        firstReads.add(Op.getData(paths.owners(ns)));
        firstReads.addAll(slotReads.slotReads(ns, firstBatch));
        Stamped start = stamped.send(deadline, ns, paths.clock(ns), firstReads);
        Namespace namespace = start.namespace();
        Reply index = start.second();
        Reply hint = start.replies().get(1);
        Map<Integer, Reply> firstRead = new TreeMap<>();
        for (int i = 0; i < firstBatch.size(); i++) {
            firstRead.put(firstBatch.get(i), start.replies().get(2 + i));
        }
        byte[] hintData = hint.ok() ? hint.data() : null;
        int position =
                lost == 0
                        ? HerdSpread.firstPosition(
                                start.ticket(), HerdSpread.landed(hintData), namespace.limit())
                        : HerdSpread.position(start.ticket(), previousTicket, namespace.limit());
        // a first attempt with attempts under way counts its position from the slot after
        // the one the last landing took: those attempts look for theirs there too
        OptionalInt landedSlot = HerdSpread.landedSlot(hintData);
        int base =
                lost == 0 && position > 0 && landedSlot.isPresent()
                        ? (int) Math.min(landedSlot.getAsInt() + 1L, namespace.limit() - 1L)
                        : 0;
        try {
            List<Integer> owned = owned(ns, ownerKey, ownerPath, index);
            Choice choice =
                    slotChoice.choose(
                            deadline,
                            namespace,
                            owned,
                            preferred,
                            start.now(),
                            firstRead,
                            position,
                            base,
                            start.slotNodes());
            return new Attempt(start, index, owned, choice);
        } catch (SlotsExhaustedException | StoreCorruptedException e) {
            throw stamped.finished(deadline, ns, start.ticket(), e);
        }
    }

    /**
     * Round trip 2 (or 3): one write multi that compare-and-sets the chosen slot with a new term,
     * writes the owner index and the landing hint. An unknown outcome reads the slot back; one that
     * runs out of time or connection is settled in the background ({@link #releaseIfLanded}).
     */
    private Written write(
            Deadline deadline, String ns, String ownerKey, Duration ttl, Attempt attempt) {
        Stamped start = attempt.start();
        int chosen = attempt.slot();
        SlotSeen slot = attempt.choice().seen();
        String nonce = UUID.randomUUID().toString();
        SlotData term =
                slot.data()
                        .startTerm(
                                slot.mtime(),
                                start.now(),
                                ownerKey,
                                ttl,
                                start.namespace().tolerance(),
                                nonce);
        byte[] termData = term.encode();
        String ownerPath = paths.owner(ns, ownerKey);
        Reply index = attempt.index();
        byte[] indexData =
                OwnerIndexCodec.encode(
                        NamespaceRules.ownerIndexAfter(chosen, attempt.owned()), nonce);
        NodeChange indexChange =
                index.is(Code.NONODE)
                        ? NodeChange.create(ownerPath, indexData)
                        : NodeChange.replace(
                                ownerPath, index.stat().getVersion(), index.data(), indexData);
        try {
            WriteOutcome w =
                    conditionalWrite.send(
                            deadline,
                            slotReads.location(ns, chosen),
                            SlotTerms.slotChange(paths.slot(ns, chosen), slot, termData),
                            indexChange,
                            NodeChange.hint(
                                    paths.owners(ns), HerdSpread.hint(start.ticket(), chosen)));
            SlotSeen mine =
                    switch (w.kind()) {
                        case LANDED -> terms.written(deadline, ns, chosen, term, termData, w);
                        case UNKNOWN -> terms.readBack(deadline, ns, chosen, nonce);
                        case LOST_RACE, PARENT_MISSING, NODE_GONE, NOT_ALLOWED -> null;
                    };
            return new Written(w, mine);
        } catch (StoreCorruptedException e) {
            throw e;
        } catch (StoreException e) {
            // out of time (or connection) before the outcome was known: the write may have
            // landed, leaving a term nobody holds; the store releases it in the background if so
            releaseIfLanded(ns, chosen, nonce, ttl);
            throw e;
        }
    }

    /** The slots the owner index lists, most recent first; none when it does not exist. */
    private static List<Integer> owned(String ns, String ownerKey, String ownerPath, Reply index) {
        return index.is(Code.NONODE)
                ? List.of()
                : OwnerIndexCodec.decode(
                        "owner index of '"
                                + ownerKey
                                + "' in namespace '"
                                + ns
                                + "' ("
                                + ownerPath
                                + ")",
                        index.data());
    }

    /**
     * Settles an acquire whose outcome its caller never learned: if the slot holds this attempt's
     * term (its nonce), nobody holds that lease and nobody stamped under it, so the term is
     * released handing back its whole window (declared bound: its floor).
     */
    private void releaseIfLanded(String ns, int slot, String nonce, Duration ttl) {
        settlements.later(
                "settling a timed-out acquire of slot " + slot + " in namespace '" + ns + "'",
                ttl,
                d -> {
                    SlotSeen seen = terms.readBack(d, ns, slot, nonce);
                    if (seen != null && seen.data().state() == SlotData.State.HELD) {
                        SlotLease orphan = seen.data().lease(ns, slot, seen.mtime());
                        try {
                            terms.endTerm(d, orphan, orphan.floor().toEpochMilli());
                        } catch (LeaseLostException lost) {
                            // another term started: nothing is left to finish
                        }
                    }
                    return true;
                });
    }
}
