package io.cosid.store.inmemory;

import static io.cosid.store.StoreArguments.requireFence;
import static io.cosid.store.StoreArguments.requireInstant;
import static io.cosid.store.StoreArguments.requireLease;
import static io.cosid.store.StoreArguments.requireLimit;
import static io.cosid.store.StoreArguments.requireNamespace;
import static io.cosid.store.StoreArguments.requireOwnerKey;
import static io.cosid.store.StoreArguments.requireSlot;
import static io.cosid.store.StoreArguments.requireTolerance;
import static io.cosid.store.StoreArguments.requireTtl;

import io.cosid.store.Namespace;
import io.cosid.store.NamespaceNotFoundException;
import io.cosid.store.NamespaceSnapshot;
import io.cosid.store.SlotBusyException;
import io.cosid.store.SlotLease;
import io.cosid.store.SlotLeaseStore;
import io.cosid.store.SlotView;
import io.cosid.store.SlotsExhaustedException;
import io.cosid.store.StoreCorruptedException;
import io.cosid.store.spi.NamespaceRules;
import io.cosid.store.spi.OperationNames;
import io.cosid.store.spi.SlotChoiceOrder;
import io.cosid.store.spi.SlotHistory;
import io.cosid.store.spi.SlotState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * SlotLeaseStore as the contract states it (docs/contract.md, "SlotLeaseStore"). The term rules
 * live in {@link SlotState}; this class chooses slots, checks fences and keeps the owner index.
 */
final class InMemorySlotLeaseStore implements SlotLeaseStore {

    private final InMemoryBackend backend;
    private final Operations operations;

    /**
     * Every slot this store instance read or wrote, as it last saw it (guarded by the backend's
     * lock, under which every operation runs): a slot deleted, or changed against {@link
     * SlotHistory}, behind its back is refused.
     */
    private final Map<String, SlotView> seen = new HashMap<>();

    InMemorySlotLeaseStore(InMemoryBackend backend, Operations operations) {
        this.backend = backend;
        this.operations = operations;
    }

    @Override
    public Namespace define(String namespace, int limit, Duration tolerance) {
        requireNamespace(namespace);
        requireLimit(limit);
        requireTolerance(tolerance);
        Namespace requested = new Namespace(namespace, limit, tolerance);
        return operations.run(
                OperationNames.define(namespace),
                () -> {
                    Optional<Namespace> existing = readNamespace(namespace);
                    if (existing.isPresent()
                            && !NamespaceRules.redefines(existing.get(), requested)) {
                        return existing.get();
                    }
                    backend.namespaces.put(namespace, Node.of(requested, backend.nextGeneration()));
                    return requested;
                });
    }

    @Override
    public Optional<Namespace> namespace(String namespace) {
        requireNamespace(namespace);
        return operations.run(
                OperationNames.readNamespace(namespace), () -> readNamespace(namespace));
    }

    @Override
    public List<Namespace> namespaces() {
        return operations.run(
                OperationNames.listNamespaces(),
                () ->
                        backend.namespaces.entrySet().stream()
                                .map(e -> e.getValue().read("namespace '" + e.getKey() + "'"))
                                .toList());
    }

    @Override
    public SlotLease acquire(String namespace, String ownerKey, Duration ttl) {
        return acquire(namespace, ownerKey, ttl, OptionalInt.empty());
    }

    @Override
    public SlotLease acquire(String namespace, String ownerKey, Duration ttl, int preferredSlot) {
        return acquire(namespace, ownerKey, ttl, OptionalInt.of(preferredSlot));
    }

    private SlotLease acquire(
            String namespace, String ownerKey, Duration ttl, OptionalInt preferredSlot) {
        requireNamespace(namespace);
        requireOwnerKey(ownerKey);
        requireTtl(ttl);
        return operations.run(
                OperationNames.acquire(namespace, ownerKey),
                () -> {
                    Namespace ns = existingNamespace(namespace);
                    preferredSlot.ifPresent(slot -> requireSlot(slot, ns));
                    Instant now = backend.now();
                    List<Integer> owned = ownerIndex(namespace, ownerKey);
                    int slot = chooseFreeSlot(ns, owned, preferredSlot, now);
                    SlotState term =
                            readSlot(namespace, slot).startTerm(ownerKey, now, ttl, ns.tolerance());
                    writeSlot(namespace, slot, term);
                    writeOwnerIndex(namespace, ownerKey, slot, owned);
                    return term.toLease(namespace, slot);
                });
    }

    /**
     * The contract's choice order: slots the owner index lists (most recent first), then the
     * preferred slot, then the lowest-numbered free slot.
     */
    private int chooseFreeSlot(
            Namespace ns, List<Integer> owned, OptionalInt preferredSlot, Instant now) {
        for (int slot : SlotChoiceOrder.firstChoices(ns, owned, preferredSlot)) {
            if (readSlot(ns.name(), slot).isFreeAt(now)) {
                return slot;
            }
        }
        for (int slot = 0; slot < ns.limit(); slot++) {
            if (readSlot(ns.name(), slot).isFreeAt(now)) {
                return slot;
            }
        }
        throw new SlotsExhaustedException(ns.name(), ns.limit());
    }

    @Override
    public SlotLease renew(SlotLease lease) {
        requireLease(lease);
        return operations.run(
                OperationNames.renew(lease.namespace(), lease.slot()),
                () -> {
                    SlotState current = currentTerm(lease);
                    SlotState renewed = current.renewedAt(backend.now());
                    writeSlot(lease.namespace(), lease.slot(), renewed);
                    return renewed.toLease(lease.namespace(), lease.slot());
                });
    }

    @Override
    public Instant release(SlotLease lease) {
        requireLease(lease);
        return endTerm(lease, null);
    }

    @Override
    public Instant release(SlotLease lease, Instant stampedBefore) {
        requireLease(lease);
        requireInstant("stampedBefore", stampedBefore);
        return endTerm(lease, stampedBefore);
    }

    /**
     * Ends the term; a null {@code stampedBefore} declares nothing, so the whole window stays used.
     */
    private Instant endTerm(SlotLease lease, @Nullable Instant stampedBefore) {
        return operations.run(
                OperationNames.release(lease.namespace(), lease.slot()),
                () -> {
                    SlotState slot =
                            readSlot(existingNamespace(lease.namespace()).name(), lease.slot());
                    boolean sameTerm =
                            slot.fence() == lease.fence() && slot.owner().equals(lease.ownerKey());
                    if (sameTerm && slot.released()) {
                        return slot.nextFloor(); // idempotent: released already
                    }
                    currentTerm(lease);
                    SlotState released =
                            slot.releasedAt(
                                    backend.now(),
                                    stampedBefore == null ? slot.ceiling() : stampedBefore);
                    writeSlot(lease.namespace(), lease.slot(), released);
                    return released.nextFloor();
                });
    }

    @Override
    public SlotView advance(String namespace, int slot, long fenceAtLeast, Instant floorAtLeast) {
        requireNamespace(namespace);
        requireFence(fenceAtLeast);
        requireInstant("floorAtLeast", floorAtLeast);
        return operations.run(
                OperationNames.slotAdvance(namespace, slot),
                () -> {
                    requireSlot(slot, existingNamespace(namespace));
                    SlotState current = readSlot(namespace, slot);
                    if (current.isAtLeast(fenceAtLeast, floorAtLeast)) {
                        return current.toView(namespace, slot);
                    }
                    Instant now = backend.now();
                    if (!current.owner().isEmpty()
                            && !current.released()
                            && now.isBefore(current.expiresAt())) {
                        throw new SlotBusyException(
                                namespace, slot, current.owner(), current.expiresAt());
                    }
                    SlotState advanced = current.advancedTo(fenceAtLeast, floorAtLeast);
                    writeSlot(namespace, slot, advanced);
                    return advanced.toView(namespace, slot);
                });
    }

    @Override
    public NamespaceSnapshot inspect(String namespace) {
        requireNamespace(namespace);
        return operations.run(
                OperationNames.inspect(namespace),
                () -> {
                    Namespace ns = existingNamespace(namespace);
                    List<SlotView> views = new ArrayList<>();
                    backend.slots
                            .getOrDefault(namespace, new TreeMap<>())
                            .forEach(
                                    (slot, node) ->
                                            views.add(
                                                    node.read(slotLocation(namespace, slot))
                                                            .toView(namespace, slot)));
                    return new NamespaceSnapshot(ns, backend.now(), views);
                });
    }

    /**
     * The slot's record when {@code lease} is still its current term; otherwise the lease is lost.
     */
    private SlotState currentTerm(SlotLease lease) {
        return readSlot(existingNamespace(lease.namespace()).name(), lease.slot())
                .requireCurrentTermOf(lease);
    }

    private Optional<Namespace> readNamespace(String namespace) {
        Node<Namespace> node = backend.namespaces.get(namespace);
        return node == null
                ? Optional.empty()
                : Optional.of(node.read("namespace '" + namespace + "'"));
    }

    private Namespace existingNamespace(String namespace) {
        return readNamespace(namespace)
                .orElseThrow(() -> new NamespaceNotFoundException(namespace));
    }

    private SlotState readSlot(String namespace, int slot) {
        Node<SlotState> node = backend.slots.getOrDefault(namespace, new TreeMap<>()).get(slot);
        SlotView mark = seen.get(namespace + "/" + slot);
        if (node == null) {
            if (mark != null) {
                throw new StoreCorruptedException(
                        slotLocation(namespace, slot),
                        "the slot was deleted behind this"
                                + " store's back after it saw fence "
                                + mark.fence()
                                + "; starting it over at fence 1 could"
                                + " hand out a fence and a window twice ("
                                + SlotHistory.repair(mark)
                                + ")");
            }
            return SlotState.NEVER_HELD;
        }
        SlotState record = node.read(slotLocation(namespace, slot));
        remember(namespace, slot, record);
        return record;
    }

    /** Remembers a slot state this store saw, refusing one that cannot follow the last it saw. */
    private void remember(String namespace, int slot, SlotState record) {
        SlotView view = record.toView(namespace, slot);
        SlotView mark = seen.get(namespace + "/" + slot);
        String why = mark == null ? null : SlotHistory.whyNotAfter(mark, view);
        if (mark != null && why != null) {
            throw new StoreCorruptedException(
                    slotLocation(namespace, slot),
                    why
                            + " behind this store's back;"
                            + " using it could hand out a fence and a window twice ("
                            + SlotHistory.repair(mark)
                            + ")");
        }
        seen.put(namespace + "/" + slot, view);
    }

    private void writeSlot(String namespace, int slot, SlotState record) {
        TreeMap<Integer, Node<SlotState>> nodes =
                backend.slots.computeIfAbsent(namespace, n -> new TreeMap<>());
        Node<SlotState> node = nodes.get(slot);
        nodes.put(
                slot, node == null ? Node.of(record, backend.nextGeneration()) : node.with(record));
        seen.put(namespace + "/" + slot, record.toView(namespace, slot));
    }

    /** The slots this owner key held last, most recent first; empty for an owner never seen. */
    private List<Integer> ownerIndex(String namespace, String ownerKey) {
        Node<List<Integer>> node =
                backend.ownerIndex.getOrDefault(namespace, new TreeMap<>()).get(ownerKey);
        return node == null
                ? List.of()
                : node.read("owner index of '" + ownerKey + "' in namespace '" + namespace + "'");
    }

    /**
     * Writes the owner index after an acquire of {@code slot} (docs/contract.md, "Owner index").
     */
    private void writeOwnerIndex(String namespace, String ownerKey, int slot, List<Integer> owned) {
        backend.ownerIndex
                .computeIfAbsent(namespace, n -> new TreeMap<>())
                .put(
                        ownerKey,
                        Node.of(
                                NamespaceRules.ownerIndexAfter(slot, owned),
                                backend.nextGeneration()));
    }

    private static String slotLocation(String namespace, int slot) {
        return "slot " + slot + " of namespace '" + namespace + "'";
    }
}
