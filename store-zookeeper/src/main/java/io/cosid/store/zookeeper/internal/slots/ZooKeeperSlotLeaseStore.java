package io.cosid.store.zookeeper.internal.slots;

import static io.cosid.store.StoreArguments.printable;
import static io.cosid.store.StoreArguments.requireFence;
import static io.cosid.store.StoreArguments.requireInstant;
import static io.cosid.store.StoreArguments.requireLease;
import static io.cosid.store.StoreArguments.requireLimit;
import static io.cosid.store.StoreArguments.requireNamespace;
import static io.cosid.store.StoreArguments.requireOwnerKey;
import static io.cosid.store.StoreArguments.requireSlot;
import static io.cosid.store.StoreArguments.requireTolerance;
import static io.cosid.store.StoreArguments.requireTtl;

import io.cosid.store.LeaseLostException;
import io.cosid.store.Namespace;
import io.cosid.store.NamespaceNotFoundException;
import io.cosid.store.NamespaceSnapshot;
import io.cosid.store.SlotBusyException;
import io.cosid.store.SlotLease;
import io.cosid.store.SlotLeaseStore;
import io.cosid.store.SlotView;
import io.cosid.store.SlotsExhaustedException;
import io.cosid.store.StoreCorruptedException;
import io.cosid.store.StoreException;
import io.cosid.store.StoreObserver.Operation;
import io.cosid.store.StoreTimeoutException;
import io.cosid.store.StoreUnavailableException;
import io.cosid.store.spi.NamespaceRules;
import io.cosid.store.spi.OperationNames;
import io.cosid.store.spi.SlotChoiceOrder;
import io.cosid.store.spi.SlotHistory;
import io.cosid.store.zookeeper.internal.wire.ConditionalWrite;
import io.cosid.store.zookeeper.internal.wire.Deadline;
import io.cosid.store.zookeeper.internal.wire.Failures;
import io.cosid.store.zookeeper.internal.wire.NodeChange;
import io.cosid.store.zookeeper.internal.wire.NodePaths;
import io.cosid.store.zookeeper.internal.wire.ParentAcls;
import io.cosid.store.zookeeper.internal.wire.PathCreator;
import io.cosid.store.zookeeper.internal.wire.Reads;
import io.cosid.store.zookeeper.internal.wire.Reply;
import io.cosid.store.zookeeper.internal.wire.Requests;
import io.cosid.store.zookeeper.internal.wire.RoundTrips;
import io.cosid.store.zookeeper.internal.wire.StoreLifecycle;
import io.cosid.store.zookeeper.internal.wire.WriteOutcome;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.data.Stat;

/**
 * SlotLeaseStore on {@code {root}/slot} and {@code {root}/owner} (docs/contract.md,
 * "SlotLeaseStore").
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
public final class ZooKeeperSlotLeaseStore implements SlotLeaseStore {

    static final int FIRST_BATCH = 32;
    static final int MAX_BATCH = 256;

    /**
     * A slot as this store last saw it. Whether the node exists is kept apart from its data
     * version: every int is a version a node can really have (after 2^32 writes), so none can stand
     * for "no node".
     */
    record Seen(SlotData data, boolean exists, int version, long czxid, long mtime, byte[] raw) {

        /** A slot whose node does not exist yet. */
        static Seen absent() {
            return new Seen(SlotData.NEVER_HELD, false, 0, 0, 0, null);
        }

        static Seen of(SlotData data, Stat stat, byte[] raw) {
            return new Seen(data, true, stat.getVersion(), stat.getCzxid(), stat.getMtime(), raw);
        }
    }

    /** The slot an acquire chose, as it was read. */
    private record Choice(int slot, Seen seen) {}

    /**
     * What the first round trip of an acquire, advance or inspect learns: now and the ticket (the
     * clock write's mtime and version), the namespace with the number of its slot nodes, and the
     * replies to the further requests.
     */
    private record Start(
            long now, int ticket, Namespace namespace, int slotNodes, List<Reply> replies) {

        /** The reply to the first further request. */
        Reply second() {
            return replies.get(0);
        }
    }

    private final RoundTrips roundTrips;
    private final Reads reads;
    private final ConditionalWrite conditionalWrite;
    private final PathCreator pathCreator;
    private final Failures failures;
    private final NodePaths paths;
    private final StoreLifecycle lifecycle;
    private final ParentAcls parentAcls;
    private final Settlements settlements;
    private final Map<String, Seen> written = new ConcurrentHashMap<>();

    /** Each namespace as last read, with the largest limit seen (a limit is only ever raised). */
    private final Map<String, Namespace> namespaces = new ConcurrentHashMap<>();

    /**
     * Every slot this store read or wrote, as it last saw it: never forgotten while the store runs.
     */
    private final Map<String, SlotMark> marks = new ConcurrentHashMap<>();

    @Inject
    ZooKeeperSlotLeaseStore(
            RoundTrips roundTrips,
            Reads reads,
            ConditionalWrite conditionalWrite,
            PathCreator pathCreator,
            Failures failures,
            NodePaths paths,
            StoreLifecycle lifecycle,
            ParentAcls parentAcls,
            Settlements settlements) {
        this.roundTrips = roundTrips;
        this.reads = reads;
        this.conditionalWrite = conditionalWrite;
        this.pathCreator = pathCreator;
        this.failures = failures;
        this.paths = paths;
        this.lifecycle = lifecycle;
        this.parentAcls = parentAcls;
        this.settlements = settlements;
    }

    // ---- namespaces ----

    @Override
    public Namespace define(String namespace, int limit, Duration tolerance) {
        requireNamespace(namespace);
        requireLimit(limit);
        requireTolerance(tolerance);
        Namespace requested = new Namespace(namespace, limit, tolerance);
        Deadline deadline =
                lifecycle.start(Operation.NAMESPACE_DEFINE, OperationNames.define(namespace));
        parentAcls.checkNamespace(deadline, namespace);
        String path = paths.namespace(namespace);
        String location = "namespace '" + namespace + "' (" + path + ")";
        byte[] data = NamespaceCodec.encode(requested);
        while (deadline.hasTimeLeft()) {
            Reply r = reads.one(deadline, h -> Requests.getData(h, path));
            WriteOutcome w;
            if (r.is(Code.NONODE)) {
                w =
                        conditionalWrite.send(
                                deadline,
                                location,
                                NodeChange.create(path, data),
                                NodeChange.create(paths.clock(namespace), new byte[0]));
            } else if (r.ok()) {
                Namespace current = NamespaceCodec.decode(namespace, path, r.data());
                if (!NamespaceRules.redefines(current, requested)) {
                    ensureBookkeeping(deadline, namespace);
                    return current;
                }
                w =
                        conditionalWrite.send(
                                deadline,
                                location,
                                NodeChange.replace(path, r.stat().getVersion(), r.data(), data));
            } else {
                throw failures.unexpected(deadline, r);
            }
            switch (w.kind()) {
                case LANDED -> {
                    ensureBookkeeping(deadline, namespace);
                    return requested;
                }
                case PARENT_MISSING -> {
                    if (w.missingParent().equals(paths.slotRoot())) {
                        pathCreator.ensure(deadline, paths.slotRoot());
                    } else {
                        createMissingBookkeeping(deadline, w.missingParent(), namespace);
                    }
                }
                case LOST_RACE, UNKNOWN, NODE_GONE, NOT_ALLOWED -> {
                    // read again: what is stored now decides (an unknown write that landed reads as
                    // defined)
                }
            }
        }
        throw deadline.expired(null);
    }

    /**
     * Creates what a defined namespace needs besides its node, if missing: the parent of its owner
     * indexes (holding the landing hint), and its clock node (content: nothing but its modification
     * time). Defining a namespace again is thereby the repair of a clock node deleted by hand. One
     * round trip when both exist.
     */
    private void ensureBookkeeping(Deadline deadline, String ns) {
        List<Reply> replies =
                roundTrips.send(
                        deadline,
                        h ->
                                List.of(
                                        // the landing hint starts at the clock's first version,
                                        // so that a herd on a new namespace spreads at once
                                        Requests.create(
                                                h,
                                                paths.owners(ns),
                                                HerdSpread.hint(0),
                                                paths.acl()),
                                        Requests.create(
                                                h, paths.clock(ns), new byte[0], paths.acl())));
        Reply owners = replies.get(0);
        if (owners.is(Code.NONODE) || owners.connectionProblem()) {
            pathCreator.ensure(deadline, paths.owners(ns), HerdSpread.hint(0));
        } else if (!owners.ok() && !owners.is(Code.NODEEXISTS)) {
            throw failures.unexpected(deadline, owners);
        }
        Reply clock = replies.get(1);
        if (clock.connectionProblem()) {
            pathCreator.ensure(deadline, paths.clock(ns));
        } else if (!clock.ok() && !clock.is(Code.NODEEXISTS) && !clock.is(Code.NONODE)) {
            throw failures.unexpected(deadline, clock);
        }
    }

    /**
     * After a write found a parent missing: creates it when it is the store's own bookkeeping (the
     * claim root, the namespace's owner indexes). A missing slot or namespace node is never created
     * here: the next read reports it (a slot deleted behind the store's back, a namespace never
     * defined).
     */
    private void createMissingBookkeeping(Deadline deadline, String parent, String ns) {
        if (parent.equals(paths.wrapRoot()) || parent.equals(paths.owners(ns))) {
            pathCreator.ensure(deadline, parent);
        }
    }

    @Override
    public Optional<Namespace> namespace(String namespace) {
        requireNamespace(namespace);
        Deadline deadline =
                lifecycle.start(Operation.NAMESPACE_GET, OperationNames.readNamespace(namespace));
        String path = paths.namespace(namespace);
        Reply r = reads.one(deadline, h -> Requests.getData(h, path));
        if (r.is(Code.NONODE)) {
            return Optional.empty();
        }
        if (!r.ok()) {
            throw failures.unexpected(deadline, r);
        }
        return Optional.of(NamespaceCodec.decode(namespace, path, r.data()));
    }

    @Override
    public List<Namespace> namespaces() {
        Deadline deadline =
                lifecycle.start(Operation.NAMESPACE_LIST, OperationNames.listNamespaces());
        Reply children = reads.one(deadline, h -> Requests.getChildren(h, paths.slotRoot()));
        if (children.is(Code.NONODE)) {
            return List.of();
        }
        if (!children.ok()) {
            throw failures.unexpected(deadline, children);
        }
        List<String> names = children.children().stream().sorted().toList();
        List<Reply> data =
                reads.all(
                        deadline,
                        h ->
                                names.stream()
                                        .map(n -> Requests.getData(h, paths.namespace(n)))
                                        .toList());
        List<Namespace> result = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            if (data.get(i).ok()) {
                result.add(
                        NamespaceCodec.decode(
                                names.get(i), paths.namespace(names.get(i)), data.get(i).data()));
            }
        }
        return List.copyOf(result);
    }

    // ---- acquire ----

    @Override
    public SlotLease acquire(String namespace, String ownerKey, Duration ttl) {
        return acquire(namespace, ownerKey, ttl, OptionalInt.empty());
    }

    @Override
    public SlotLease acquire(String namespace, String ownerKey, Duration ttl, int preferredSlot) {
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
        preferred.ifPresent(slot -> requireSlot(slot, namespaceWith(deadline, ns, slot)));
        String ownerPath = paths.owner(ns, ownerKey);
        String hintPath = paths.owners(ns);
        int lost = 0;
        int previousTicket = 0;
        while (deadline.hasTimeLeft()) {
            List<Integer> firstBatch = firstBatch(namespaces.get(ns), preferred);
            List<Op> firstReads = new ArrayList<>();
            firstReads.add(Op.getData(ownerPath));
            firstReads.add(Op.getData(hintPath));
            firstReads.addAll(slotReads(ns, firstBatch));
            Start start = start(deadline, ns, paths.clock(ns), firstReads);
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
                            : HerdSpread.position(
                                    start.ticket(), previousTicket, namespace.limit());
            // a first attempt with attempts under way counts its position from the slot after
            // the one the last landing took: those attempts look for theirs there too
            OptionalInt landedSlot = HerdSpread.landedSlot(hintData);
            int base =
                    lost == 0 && position > 0 && landedSlot.isPresent()
                            ? (int) Math.min(landedSlot.getAsInt() + 1L, namespace.limit() - 1L)
                            : 0;
            previousTicket = start.ticket();
            List<Integer> owned;
            Choice choice;
            try {
                owned = owned(ns, ownerKey, ownerPath, index);
                choice =
                        chooseFreeSlot(
                                deadline,
                                namespace,
                                owned,
                                preferred,
                                start.now(),
                                firstRead,
                                position,
                                base,
                                start.slotNodes());
            } catch (SlotsExhaustedException | StoreCorruptedException e) {
                throw finished(deadline, ns, start.ticket(), e);
            }
            int chosen = choice.slot();
            Seen slot = choice.seen();
            String nonce = UUID.randomUUID().toString();
            SlotData term =
                    slot.data()
                            .startTerm(
                                    slot.mtime(),
                                    start.now(),
                                    ownerKey,
                                    ttl,
                                    namespace.tolerance(),
                                    nonce);
            byte[] termData = term.encode();
            byte[] indexData =
                    OwnerIndexCodec.encode(NamespaceRules.ownerIndexAfter(chosen, owned), nonce);
            NodeChange indexChange =
                    index.is(Code.NONODE)
                            ? NodeChange.create(ownerPath, indexData)
                            : NodeChange.replace(
                                    ownerPath, index.stat().getVersion(), index.data(), indexData);
            WriteOutcome w;
            Seen mine;
            try {
                w =
                        conditionalWrite.send(
                                deadline,
                                location(ns, chosen),
                                slotChange(paths.slot(ns, chosen), slot, termData),
                                indexChange,
                                NodeChange.hint(hintPath, HerdSpread.hint(start.ticket(), chosen)));
                mine =
                        switch (w.kind()) {
                            case LANDED -> written(deadline, ns, chosen, term, termData, w);
                            case UNKNOWN -> readBack(deadline, ns, chosen, nonce);
                            case LOST_RACE, PARENT_MISSING, NODE_GONE, NOT_ALLOWED -> null;
                        };
            } catch (StoreCorruptedException e) {
                throw e;
            } catch (StoreException e) {
                // out of time (or connection) before the outcome was known: the write may have
                // landed, leaving a term nobody holds; the store releases it in the background if
                // so
                releaseIfLanded(ns, chosen, nonce, ttl);
                throw e;
            }
            if (mine != null) {
                return mine.data().lease(ns, chosen, mine.mtime());
            }
            switch (w.kind()) {
                case LOST_RACE -> lost++; // another acquire took the slot or wrote the index first
                case PARENT_MISSING -> createMissingBookkeeping(deadline, w.missingParent(), ns);
                case LANDED, UNKNOWN, NODE_GONE, NOT_ALLOWED -> {
                    // unknown: the read-back did not find this attempt's nonce, so the write did
                    // not land; a node gone is reported by the next read
                }
            }
            // start again with a fresh clock
        }
        throw deadline.expired(null);
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
     * The namespace as this store knows it, read only when the known one does not hold {@code
     * slot}: a limit is never lowered, so a slot inside a limit seen once stays inside. A read,
     * never a write.
     */
    private Namespace namespaceWith(Deadline deadline, String ns, int slot) {
        Namespace known = namespaces.get(ns);
        if (known != null && known.contains(slot)) {
            return known;
        }
        String path = paths.namespace(ns);
        Reply r = reads.one(deadline, h -> Requests.getData(h, path));
        if (r.is(Code.NONODE)) {
            throw new NamespaceNotFoundException(ns);
        }
        if (!r.ok()) {
            throw failures.unexpected(deadline, r);
        }
        return known(NamespaceCodec.decode(ns, path, r.data()));
    }

    /**
     * An acquire attempt refused after its clock write (no free slot, or corrupt data read)
     * finished too: its ticket goes into the landing hint, so that the next acquire does not count
     * it as one still under way and takes the lowest free slot. One request, on an exceptional
     * path; its outcome does not change the answer (a hint carries no safety): a failure of it is
     * attached to {@code refusal} as suppressed.
     *
     * @return {@code refusal}, for the caller to throw
     */
    private StoreException finished(
            Deadline deadline, String ns, int ticket, StoreException refusal) {
        if (!deadline.hasTimeLeft()) {
            return refusal;
        }
        try {
            conditionalWrite.send(
                    deadline,
                    "the landing hint of namespace '" + ns + "' (" + paths.owners(ns) + ")",
                    NodeChange.hint(paths.owners(ns), HerdSpread.hint(ticket)));
        } catch (StoreException e) {
            refusal.addSuppressed(e);
        }
        return refusal;
    }

    /** Remembers a namespace as read, keeping the largest limit seen. */
    private Namespace known(Namespace namespace) {
        namespaces.merge(namespace.name(), namespace, (a, b) -> a.limit() >= b.limit() ? a : b);
        return namespace;
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
                    Seen seen = readBack(d, ns, slot, nonce);
                    if (seen != null && seen.data().state() == SlotData.State.HELD) {
                        SlotLease orphan = seen.data().lease(ns, slot, seen.mtime());
                        endTerm(d, orphan, orphan.floor().toEpochMilli());
                    }
                });
    }

    /**
     * The slots read in the acquire's first round trip, behind the clock write: the lowest {@value
     * #FIRST_BATCH} (those inside a limit read before, else the first {@value #FIRST_BATCH}: slots
     * past a limit have no node) and the preferred slot.
     */
    private static List<Integer> firstBatch(Namespace known, OptionalInt preferred) {
        int size = known == null ? FIRST_BATCH : Math.min(FIRST_BATCH, known.limit());
        Set<Integer> slots = new LinkedHashSet<>();
        for (int s = 0; s < size; s++) {
            slots.add(s);
        }
        preferred.ifPresent(slots::add);
        return List.copyOf(slots);
    }

    /**
     * Round trip 1: a write of {@code stamp} first (its mtime is "now"; on one session it is also
     * the barrier that the reads behind it see everything up to it), then one read-only multi of
     * the namespace and the further reads (acquire: the owner index, the landing hint and the first
     * batch of slots; inspect: the namespace's children; advance: the slot): two requests. Only the
     * first further reply is checked here: a missing node is an answer, any other error a failure.
     *
     * <p>An acquire stamps the namespace's {@code .clock}, whose version is then the attempt's
     * ticket; inspect and advance stamp the parent of the owner indexes instead (clearing the
     * landing hint it holds), so that the clock's versions count acquire attempts only
     * (docs/contract.md, "Choice order").
     */
    private Start start(Deadline deadline, String ns, String stamp, List<Op> further) {
        parentAcls.checkNamespace(deadline, ns);
        String nsPath = paths.namespace(ns);
        List<Op> readOps = new ArrayList<>();
        readOps.add(Op.getData(nsPath));
        readOps.addAll(further);
        List<Reply> sent =
                reads.all(
                        deadline,
                        h ->
                                List.of(
                                        // not a compare-and-set: only its mtime and version matter
                                        Requests.setData(h, stamp, new byte[0], -1),
                                        Requests.multi(h, readOps)));
        Reply clockReply = sent.get(0);
        // A read-only multi answers per operation; its overall code is the first operation's
        // error (a missing node), so only the absence of per-operation results is a failure.
        Reply multi = sent.get(1);
        if (multi.results() == null || multi.results().size() != readOps.size()) {
            throw failures.unexpected(deadline, multi);
        }
        List<Reply> replies = new ArrayList<>();
        for (int i = 0; i < readOps.size(); i++) {
            replies.add(Reply.ofRead(readOps.get(i).getPath(), multi.results().get(i)));
        }
        Reply nsReply = replies.get(0);
        if (nsReply.is(Code.NONODE)) {
            throw new NamespaceNotFoundException(ns);
        }
        if (!nsReply.ok()) {
            throw failures.unexpected(deadline, nsReply);
        }
        Namespace namespace;
        try {
            namespace = known(NamespaceCodec.decode(ns, nsPath, nsReply.data()));
        } catch (StoreCorruptedException e) {
            // an acquire's clock write gave it a ticket: the refused attempt finishes it
            throw clockReply.ok() && stamp.equals(paths.clock(ns))
                    ? finished(deadline, ns, clockReply.stat().getVersion(), e)
                    : e;
        }
        if (clockReply.is(Code.NONODE) && stamp.equals(paths.owners(ns))) {
            // the parent of the owner indexes is the store's own bookkeeping: created, not refused
            pathCreator.ensure(deadline, stamp);
            return start(deadline, ns, stamp, further);
        }
        if (clockReply.is(Code.NONODE)) {
            throw new StoreCorruptedException(
                    "namespace '" + ns + "' (" + nsPath + ")",
                    "its clock node "
                            + stamp
                            + " is missing (repair: define the namespace again with its limit and"
                            + " tolerance, which creates the clock node; nothing else changes)");
        }
        if (!clockReply.ok()) {
            throw failures.unexpected(deadline, clockReply);
        }
        List<Reply> rest = replies.subList(1, replies.size());
        Reply second = rest.get(0);
        if (!second.ok() && !second.is(Code.NONODE)) {
            throw failures.unexpected(deadline, second);
        }
        return new Start(
                clockReply.stat().getMtime(),
                clockReply.stat().getVersion(),
                namespace,
                // its children: the slot nodes and the clock
                Math.max(0, nsReply.stat().getNumChildren() - 1),
                List.copyOf(rest));
    }

    /**
     * The contract's choice order: the owner index's slots and the preferred slot (those not read
     * yet in one read-only multi), then the lowest free slot, or with attempts under way (a first
     * attempt's hint, or a lost race) the free slot at {@code position} among the lowest free ones
     * ({@link HerdSpread}): within the first batch if it has that many free, else the first free
     * slot of a window of {@value #FIRST_BATCH} where the position falls, else (the window all
     * taken) the position among the free slots found by reading further batches. A first attempt
     * whose hint names the slot the last landing took ({@code base} is the slot after it) counts
     * its position in slots from {@code base} instead, and takes the first free slot from there.
     * Position 0 (acquires one after another) always scans: the lowest free slot.
     */
    private Choice chooseFreeSlot(
            Deadline deadline,
            Namespace ns,
            List<Integer> owned,
            OptionalInt preferred,
            long now,
            Map<Integer, Reply> firstRead,
            int position,
            int base,
            int slotNodes) {
        List<Integer> firstChoices = SlotChoiceOrder.firstChoices(ns, owned, preferred);
        Map<Integer, Reply> read = new TreeMap<>(firstRead);
        int scanned = Math.min(FIRST_BATCH, ns.limit());
        // the first choices, and the first batch's slots inside a limit raised since it was sent
        List<Integer> unread =
                Stream.concat(firstChoices.stream(), IntStream.range(0, scanned).boxed())
                        .distinct()
                        .filter(s -> !read.containsKey(s))
                        .toList();
        if (!unread.isEmpty()) {
            read.putAll(readSlots(deadline, ns.name(), unread));
        }
        Map<Integer, Reply> batch = read;
        for (int slot : firstChoices) {
            Seen seen = decode(deadline, ns.name(), slot, batch.get(slot));
            if (seen.data().isFreeAt(now, seen.mtime())) {
                return new Choice(slot, seen);
            }
        }
        int wanted = position + 1;
        List<Choice> free = new ArrayList<>();
        if (base > 0) {
            // the position counts slots, not free ones, from base: the attempts under way since the
            // landing at base - 1 take the slots right after it, in whatever order they land, so
            // a slot taken there is one of theirs, not a reason to look further
            long target = (long) base + position;
            Optional<Choice> atTarget;
            if (target < scanned) {
                collectFree(deadline, ns.name(), batch, (int) target, scanned, now, 1, free);
                atTarget =
                        free.isEmpty()
                                ? firstFreeInWindow(deadline, ns, scanned, now)
                                : Optional.of(free.get(0));
            } else if (target < ns.limit()
                    && target >= slotNodes
                    && !marks.containsKey(paths.slot(ns.name(), (int) target))) {
                // past the first batch, at or past the number of slot nodes: in a herd filling a
                // namespace, a node not created yet. Taken as absent without reading its window;
                // the landing creates it, which fails if the node exists (a lost race), so this is
                // as safe as a read for a slot this store never saw
                atTarget = Optional.of(new Choice((int) target, Seen.absent()));
            } else {
                atTarget = firstFreeInWindow(deadline, ns, target, now);
            }
            if (atTarget.isPresent()) {
                return atTarget.get();
            }
            free.clear(); // none there: the positions below, counted from slot 0
        }
        collectFree(deadline, ns.name(), batch, 0, scanned, now, wanted, free);
        if (position > 0 && free.size() < wanted && scanned < ns.limit()) {
            // With attempts under way, past the first batch, read only a window where the position
            // would fall: each of a herd reads one batch, not every slot below its position.
            // Where that is: if at least half the first batch is free, past it at its density of
            // free slots; else past the slot nodes that exist (a herd fills a namespace from slot
            // 0, and a slot never held
            // has no node). Free slots below the window are left to the contenders whose
            // positions point there; the scan below is the fallback when the window has none.
            long ahead = wanted - 1L - free.size();
            long at =
                    free.size() * 2 >= scanned
                            ? scanned + ahead * scanned / free.size()
                            : Math.max(scanned, (long) slotNodes) + ahead;
            Optional<Choice> inWindow = firstFreeInWindow(deadline, ns, at, now);
            if (inWindow.isPresent()) {
                return inWindow.get();
            }
        }
        for (int size = FIRST_BATCH; free.size() < wanted && scanned < ns.limit(); ) {
            int from = scanned;
            size = size < MAX_BATCH ? MAX_BATCH : size * 4;
            scanned = (int) Math.min((long) from + size, ns.limit());
            batch = readSlots(deadline, ns.name(), IntStream.range(from, scanned).boxed().toList());
            collectFree(deadline, ns.name(), batch, from, scanned, now, wanted, free);
        }
        if (free.isEmpty()) {
            throw new SlotsExhaustedException(ns.name(), ns.limit());
        }
        return free.get(position % free.size());
    }

    /**
     * Reads the {@value #FIRST_BATCH} slots from {@code at} (kept inside the namespace) in one
     * round trip and returns the lowest free one among them, if any.
     */
    private Optional<Choice> firstFreeInWindow(Deadline deadline, Namespace ns, long at, long now) {
        int from = (int) Math.min(at, ns.limit() - 1L);
        int to = (int) Math.min((long) from + FIRST_BATCH, ns.limit());
        Map<Integer, Reply> window =
                readSlots(deadline, ns.name(), IntStream.range(from, to).boxed().toList());
        List<Choice> inWindow = new ArrayList<>();
        collectFree(deadline, ns.name(), window, from, to, now, 1, inWindow);
        return inWindow.stream().findFirst();
    }

    /**
     * Adds the free slots among {@code [from, to)} of a batch read, lowest first, until there are
     * {@code wanted}.
     */
    private void collectFree(
            Deadline deadline,
            String ns,
            Map<Integer, Reply> batch,
            int from,
            int to,
            long now,
            int wanted,
            List<Choice> free) {
        for (int slot = from; slot < to && free.size() < wanted; slot++) {
            Seen seen = decode(deadline, ns, slot, batch.get(slot));
            if (seen.data().isFreeAt(now, seen.mtime())) {
                free.add(new Choice(slot, seen));
            }
        }
    }

    /**
     * Reads slot nodes in one round trip: read-only multis of at most {@value #MAX_BATCH} slots
     * each, pipelined (per-operation results: a missing node is not an error).
     */
    private List<Op> slotReads(String ns, List<Integer> slots) {
        return slots.stream().map(s -> Op.getData(paths.slot(ns, s))).toList();
    }

    private Map<Integer, Reply> readSlots(Deadline deadline, String ns, List<Integer> slots) {
        List<List<Integer>> chunks = new ArrayList<>();
        for (int from = 0; from < slots.size(); from += MAX_BATCH) {
            chunks.add(slots.subList(from, Math.min(from + MAX_BATCH, slots.size())));
        }
        List<List<Op>> reads = chunks.stream().map(chunk -> slotReads(ns, chunk)).toList();
        List<Reply> replies =
                this.reads.all(
                        deadline, h -> reads.stream().map(ops -> Requests.multi(h, ops)).toList());
        Map<Integer, Reply> bySlot = new TreeMap<>();
        for (int c = 0; c < chunks.size(); c++) {
            bySlot.putAll(slotReplies(deadline, ns, chunks.get(c), replies.get(c)));
        }
        return bySlot;
    }

    /** The reply of one read-only multi of {@code slots}, slot by slot. */
    private Map<Integer, Reply> slotReplies(
            Deadline deadline, String ns, List<Integer> slots, Reply r) {
        // A read-only multi answers per operation; its overall code is the first operation's
        // error (a missing slot node), so only the absence of per-operation results is a failure.
        if (r.results() == null || r.results().size() != slots.size()) {
            throw failures.unexpected(deadline, r);
        }
        Map<Integer, Reply> bySlot = new TreeMap<>();
        for (int i = 0; i < slots.size(); i++) {
            bySlot.put(
                    slots.get(i), Reply.ofRead(paths.slot(ns, slots.get(i)), r.results().get(i)));
        }
        return bySlot;
    }

    /**
     * A slot as read, checked against what this store saw of it before: a node deleted behind the
     * store's back, or changed against {@link SlotHistory}, is refused. A missing node this store
     * saw is read once more before it is refused: the first reply may have been sent before this
     * store's own write created the node.
     */
    private Seen decode(Deadline deadline, String ns, int slot, Reply reply) {
        if (reply.is(Code.NONODE)) {
            String path = paths.slot(ns, slot);
            SlotMark mark = marks.get(path);
            if (mark == null) {
                return Seen.absent();
            }
            Reply again = reads.one(deadline, h -> Requests.getData(h, path));
            if (again.is(Code.NONODE)) {
                throw new StoreCorruptedException(
                        location(ns, slot),
                        "the slot was deleted behind this store's back"
                                + " after it saw fence "
                                + mark.view().fence()
                                + "; starting it over at fence 1 could hand"
                                + " out a fence and a window twice ("
                                + repair(mark)
                                + ")");
            }
            reply = again;
        }
        if (!reply.ok()) {
            throw new StoreCorruptedException(
                    location(ns, slot), "reading it failed with " + reply.code());
        }
        SlotData data = SlotData.decode(location(ns, slot), reply.data());
        check(ns, slot, data, reply.stat());
        return Seen.of(data, reply.stat(), reply.data());
    }

    /**
     * A slot state this store saw (read or written) as of the write that made it (mzxid), and the
     * view it gives. Only a state written after the mark is judged; an older reply arriving late is
     * neither judged nor kept.
     */
    private record SlotMark(long mzxid, SlotView view) {}

    private void check(String ns, int slot, SlotData data, Stat stat) {
        SlotView view = data.view(ns, slot, stat.getMtime());
        marks.compute(
                paths.slot(ns, slot),
                (path, known) -> {
                    if (known != null && stat.getMzxid() <= known.mzxid()) {
                        return known;
                    }
                    String why = known == null ? null : SlotHistory.whyNotAfter(known.view(), view);
                    if (why != null) {
                        throw new StoreCorruptedException(
                                location(ns, slot),
                                why
                                        + " behind this store's back; using it"
                                        + " could hand out a fence and a window twice ("
                                        + repair(known)
                                        + ")");
                    }
                    return new SlotMark(stat.getMzxid(), view);
                });
    }

    private static String repair(SlotMark mark) {
        return SlotHistory.repair(mark.view());
    }

    // ---- renew, release, advance ----

    @Override
    public SlotLease renew(SlotLease lease) {
        requireLease(lease);
        Deadline deadline =
                lifecycle.start(
                        Operation.SLOT_RENEW,
                        OperationNames.renew(lease.namespace(), lease.slot()));
        Seen mine =
                changeTerm(
                        deadline,
                        lease,
                        false,
                        current ->
                                current.data()
                                        .renewed(current.mtime(), UUID.randomUUID().toString()));
        return mine.data().lease(lease.namespace(), lease.slot(), mine.mtime());
    }

    @Override
    public Instant release(SlotLease lease) {
        requireLease(lease);
        return endTerm(lease, Long.MAX_VALUE);
    }

    @Override
    public Instant release(SlotLease lease, Instant stampedBefore) {
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
                    d -> endTerm(d, lease, stampedBefore));
            throw e;
        }
    }

    private Instant endTerm(Deadline deadline, SlotLease lease, long stampedBefore) {
        Seen ended =
                changeTerm(
                        deadline,
                        lease,
                        true,
                        current ->
                                current.data()
                                        .released(
                                                current.mtime(),
                                                UUID.randomUUID().toString(),
                                                stampedBefore));
        return Instant.ofEpochMilli(ended.data().effectiveNextFloor(ended.mtime()));
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
    private Seen changeTerm(
            Deadline deadline, SlotLease lease, boolean release, Function<Seen, SlotData> change) {
        String path = paths.slot(lease.namespace(), lease.slot());
        String location = location(lease.namespace(), lease.slot());
        boolean unsettled = false;
        while (deadline.hasTimeLeft()) {
            Seen current = currentTerm(deadline, lease, release, unsettled);
            if (current.data().state() != SlotData.State.HELD) {
                return current;
            }
            SlotData next = change.apply(current);
            byte[] data = next.encode();
            WriteOutcome w =
                    conditionalWrite.send(
                            deadline,
                            location,
                            NodeChange.replace(path, current.version(), current.raw(), data));
            if (w.landed()) {
                return landedTerm(lease, current, next, data, w.stat(0));
            }
            written.remove(path);
            switch (w.kind()) {
                case UNKNOWN -> {
                    Seen mine = readBack(deadline, lease.namespace(), lease.slot(), next.nonce());
                    if (mine != null) {
                        return mine;
                    }
                    unsettled = true;
                }
                case PARENT_MISSING ->
                        createMissingBookkeeping(deadline, w.missingParent(), lease.namespace());
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
    private Seen currentTerm(
            Deadline deadline, SlotLease lease, boolean release, boolean unsettled) {
        String path = paths.slot(lease.namespace(), lease.slot());
        Seen cached = written.get(path);
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
        Seen current =
                decode(
                        deadline,
                        lease.namespace(),
                        lease.slot(),
                        reads.one(deadline, h -> Requests.getData(h, path)));
        SlotData data = current.data();
        if (data.isTermOf(lease) && (data.state() == SlotData.State.HELD || release)) {
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
    private Seen landedTerm(SlotLease lease, Seen current, SlotData next, byte[] data, Stat stat) {
        String path = paths.slot(lease.namespace(), lease.slot());
        if (stat.getCzxid() != current.czxid()) {
            written.remove(path);
            throw new StoreCorruptedException(
                    location(lease.namespace(), lease.slot()),
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

    @Override
    public SlotView advance(String namespace, int slot, long fenceAtLeast, Instant floorAtLeast) {
        requireNamespace(namespace);
        requireFence(fenceAtLeast);
        requireInstant("floorAtLeast", floorAtLeast);
        Deadline deadline =
                lifecycle.start(
                        Operation.SLOT_ADVANCE, OperationNames.slotAdvance(namespace, slot));
        requireSlot(slot, namespaceWith(deadline, namespace, slot));
        String path = paths.slot(namespace, slot);
        // values already reached are decided on a read, so that a no-op writes nothing (its clock
        // included)
        Seen first =
                decode(
                        deadline,
                        namespace,
                        slot,
                        reads.one(deadline, h -> Requests.getData(h, path)));
        if (first.data().isAtLeast(first.mtime(), fenceAtLeast, floorAtLeast)) {
            return first.data().view(namespace, slot, first.mtime());
        }
        while (deadline.hasTimeLeft()) {
            Start start =
                    start(deadline, namespace, paths.owners(namespace), List.of(Op.getData(path)));
            Seen current = decode(deadline, namespace, slot, start.second());
            SlotData data = current.data();
            if (data.isAtLeast(current.mtime(), fenceAtLeast, floorAtLeast)) {
                return data.view(namespace, slot, current.mtime());
            }
            if (data.isHeldAt(start.now(), current.mtime())) {
                throw new SlotBusyException(
                        namespace,
                        slot,
                        data.owner(),
                        Instant.ofEpochMilli(data.expiresAt(current.mtime())));
            }
            SlotData advanced =
                    data.advanced(
                            current.mtime(),
                            fenceAtLeast,
                            floorAtLeast,
                            UUID.randomUUID().toString());
            byte[] bytes = advanced.encode();
            WriteOutcome w =
                    conditionalWrite.send(
                            deadline, location(namespace, slot), slotChange(path, current, bytes));
            if (w.landed()) {
                return advanced.view(
                        namespace,
                        slot,
                        written(deadline, namespace, slot, advanced, bytes, w).mtime());
            }
            written.remove(path);
            switch (w.kind()) {
                case PARENT_MISSING ->
                        createMissingBookkeeping(deadline, w.missingParent(), namespace);
                case LANDED, LOST_RACE, UNKNOWN, NODE_GONE, NOT_ALLOWED -> {
                    // read again: an unknown advance that landed reads as reached
                }
            }
        }
        throw deadline.expired(null);
    }

    // ---- inspection ----

    @Override
    public NamespaceSnapshot inspect(String namespace) {
        requireNamespace(namespace);
        Deadline deadline =
                lifecycle.start(Operation.SLOT_INSPECT, OperationNames.inspect(namespace));
        // one round trip: clock, namespace and its children together
        Start start =
                start(
                        deadline,
                        namespace,
                        paths.owners(namespace),
                        List.of(Op.getChildren(paths.namespace(namespace))));
        Reply children = start.second();
        if (!children.ok()) {
            throw children.is(Code.NONODE)
                    ? new NamespaceNotFoundException(namespace)
                    : failures.unexpected(deadline, children);
        }
        List<Integer> slots = new ArrayList<>();
        for (String child : children.children()) {
            if (child.equals(NodePaths.CLOCK)) {
                continue;
            }
            try {
                int slot = Integer.parseInt(child);
                if (slot < 0 || !child.equals(Integer.toString(slot))) {
                    throw new NumberFormatException(child);
                }
                slots.add(slot);
            } catch (NumberFormatException e) {
                throw new StoreCorruptedException(
                        "namespace '" + namespace + "' (" + paths.namespace(namespace) + ")",
                        "it has a child node '" + printable(child) + "' that is not a slot number");
            }
        }
        slots.sort(Integer::compare);
        List<SlotView> views = new ArrayList<>();
        readSlots(deadline, namespace, slots)
                .forEach(
                        (slot, reply) -> {
                            if (reply.ok()) {
                                Seen seen = decode(deadline, namespace, slot, reply);
                                views.add(seen.data().view(namespace, slot, seen.mtime()));
                            }
                        });
        return new NamespaceSnapshot(start.namespace(), Instant.ofEpochMilli(start.now()), views);
    }

    // ---- writes ----

    /**
     * The change that writes a slot: create a node that does not exist, else compare-and-set it.
     */
    private static NodeChange slotChange(String path, Seen current, byte[] data) {
        return !current.exists()
                ? NodeChange.create(path, data)
                : NodeChange.replace(path, current.version(), current.raw(), data);
    }

    /**
     * Remembers a slot write that landed; the slot is the write's first change. All changes of one
     * write share one transaction and its time, so the mtime comes from the slot's own Stat or any
     * other change's (through a chroot the client drops the Stat of a create inside a multi); a
     * node the write created is at version 0. Only when no change carries a Stat is the slot read
     * back.
     */
    private Seen written(
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
        String path = paths.slot(ns, slot);
        Reply r = reads.one(deadline, h -> Requests.getData(h, path));
        if (!r.ok()) {
            throw failures.unexpected(deadline, r);
        }
        return remember(ns, slot, data, raw, r.stat());
    }

    private Seen remember(String ns, int slot, SlotData data, byte[] raw, Stat stat) {
        check(ns, slot, data, stat);
        Seen seen = Seen.of(data, stat, raw);
        written.put(paths.slot(ns, slot), seen);
        return seen;
    }

    /** Settles an unknown outcome: the slot is ours only if it holds this attempt's nonce. */
    private Seen readBack(Deadline deadline, String ns, int slot, String nonce) {
        String path = paths.slot(ns, slot);
        Reply r = reads.one(deadline, h -> Requests.getData(h, path));
        if (!r.ok()) {
            return null;
        }
        Seen seen = decode(deadline, ns, slot, r);
        if (!seen.data().nonce().equals(nonce)) {
            return null;
        }
        written.put(path, seen);
        return seen;
    }

    private String location(String ns, int slot) {
        return "slot " + slot + " of namespace '" + ns + "' (" + paths.slot(ns, slot) + ")";
    }
}
