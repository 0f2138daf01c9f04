package io.cosid.store.jdbc;

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
import io.cosid.store.spi.Deadline;
import io.cosid.store.spi.NamespaceRules;
import io.cosid.store.spi.OperationNames;
import io.cosid.store.spi.Settlements;
import io.cosid.store.spi.SlotState;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;

/**
 * Slot leases in tables ({@link SlotTables}) on the database's clock: every operation is one
 * transaction on a connection of the store's own, which locks the rows it decides on, reads the
 * store's now under that lock, applies the contract's transition ({@link SlotState}) and writes the
 * rows back. A commit whose reply was lost is settled by reading the slot back: the term is this
 * store's only if the row carries the nonce of that very write.
 */
final class JdbcSlotLeaseStore implements SlotLeaseStore {

    private final JdbcCalls calls;
    private final SlotTables tables;
    private final SlotMarks marks;
    private final SlotAcquire acquires;
    private final SlotWrites writes;

    JdbcSlotLeaseStore(
            JdbcCalls calls,
            JdbcCalls settling,
            SlotTables tables,
            StoreClock clock,
            Settlements later) {
        this.calls = calls;
        this.tables = tables;
        this.marks = new SlotMarks(tables);
        this.acquires = new SlotAcquire(tables, marks, clock);
        this.writes = new SlotWrites(calls, settling, tables, marks, clock, later);
    }

    @Override
    public Namespace define(String namespace, int limit, Duration tolerance) {
        requireNamespace(namespace);
        requireLimit(limit);
        requireTolerance(tolerance);
        Namespace requested = new Namespace(namespace, limit, tolerance);
        String operation = OperationNames.define(namespace);
        Deadline deadline = calls.deadline(operation);
        while (deadline.hasTimeLeft()) {
            Optional<Namespace> defined = calls.transaction(deadline, s -> define(s, requested));
            if (defined.isPresent()) {
                return defined.get();
            }
        }
        throw deadline.expired(null);
    }

    /** Defines in one transaction; empty when another define created the row first. */
    private Optional<Namespace> define(Session session, Namespace requested) throws SQLException {
        Optional<Namespace> existing = read(session, requested.name(), tables.namespaceLock);
        if (existing.isPresent() && !NamespaceRules.redefines(existing.get(), requested)) {
            return existing;
        }
        if (existing.isEmpty()) {
            try (PreparedStatement s = session.prepare(tables.namespaceInsert)) {
                s.setString(1, requested.name());
                s.setInt(2, requested.limit());
                s.setLong(3, requested.tolerance().toMillis());
                if (s.executeUpdate() != 1) {
                    return Optional.empty();
                }
            }
        } else {
            try (PreparedStatement s = session.prepare(tables.namespaceRaise)) {
                s.setInt(1, requested.limit());
                s.setString(2, requested.name());
                s.executeUpdate();
            }
        }
        try (PreparedStatement s = session.prepare(tables.slotsCreate)) {
            s.setString(1, requested.name());
            s.setInt(2, existing.map(Namespace::limit).orElse(0));
            s.setInt(3, requested.limit() - 1);
            s.executeUpdate();
        }
        return Optional.of(requested);
    }

    @Override
    public Optional<Namespace> namespace(String namespace) {
        requireNamespace(namespace);
        return calls.autocommit(
                OperationNames.readNamespace(namespace),
                s -> read(s, namespace, tables.namespaceRead));
    }

    private Optional<Namespace> read(Session session, String namespace, String sql)
            throws SQLException {
        try (PreparedStatement s = session.prepare(sql)) {
            s.setString(1, namespace);
            try (ResultSet r = s.executeQuery()) {
                if (!r.next()) {
                    return Optional.empty();
                }
                return Optional.of(
                        NamespaceRows.namespace(
                                tables.where(namespace), namespace, r.getLong(1), r.getLong(2)));
            }
        }
    }

    @Override
    public List<Namespace> namespaces() {
        return calls.autocommit(
                OperationNames.listNamespaces(),
                session -> {
                    TreeMap<String, Namespace> all = new TreeMap<>();
                    try (PreparedStatement s = session.prepare(tables.namespaceList);
                            ResultSet r = s.executeQuery()) {
                        while (r.next()) {
                            String name = r.getString(1);
                            all.put(
                                    name,
                                    NamespaceRows.namespace(
                                            tables.where(name), name, r.getLong(2), r.getLong(3)));
                        }
                    }
                    return List.copyOf(all.values());
                });
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
            String namespace, String ownerKey, Duration ttl, OptionalInt preferred) {
        requireNamespace(namespace);
        requireOwnerKey(ownerKey);
        requireTtl(ttl);
        String operation = OperationNames.acquire(namespace, ownerKey);
        Deadline deadline = calls.deadline(operation);
        while (deadline.hasTimeLeft()) {
            SlotAcquire.Attempt attempt = acquires.attempt(namespace, ownerKey, ttl, preferred);
            try {
                SlotAcquire.Started started = calls.transaction(deadline, attempt::run);
                marks.wrote(namespace, started.lease().slot(), started.state());
                return started.lease();
            } catch (LostRace e) {
                // another acquire created the chosen slot's row: choose again
            } catch (JdbcCalls.UnknownOutcome e) {
                return writes.settleAcquire(deadline, attempt, e);
            }
        }
        throw deadline.expired(null);
    }

    @Override
    public SlotLease renew(SlotLease lease) {
        requireLease(lease);
        return writes.renew(lease);
    }

    @Override
    public Instant release(SlotLease lease) {
        requireLease(lease);
        return writes.release(lease, null);
    }

    @Override
    public Instant release(SlotLease lease, Instant stampedBefore) {
        requireLease(lease);
        requireInstant("stampedBefore", stampedBefore);
        return writes.release(lease, stampedBefore);
    }

    @Override
    public SlotView advance(String namespace, int slot, long fenceAtLeast, Instant floorAtLeast) {
        requireNamespace(namespace);
        requireFence(fenceAtLeast);
        requireInstant("floorAtLeast", floorAtLeast);
        String operation = OperationNames.slotAdvance(namespace, slot);
        Deadline deadline = calls.deadline(operation);
        while (deadline.hasTimeLeft()) {
            try {
                SlotState advanced =
                        calls.transaction(
                                deadline,
                                s -> advance(s, namespace, slot, fenceAtLeast, floorAtLeast));
                marks.wrote(namespace, slot, advanced);
                return advanced.toView(namespace, slot);
            } catch (LostRace e) {
                // another store created the slot's row: read it again
            }
        }
        throw deadline.expired(null);
    }

    private SlotState advance(
            Session session, String namespace, int slot, long fenceAtLeast, Instant floorAtLeast)
            throws SQLException {
        Namespace ns =
                read(session, namespace, tables.namespaceRead)
                        .orElseThrow(() -> new NamespaceNotFoundException(namespace));
        requireSlot(slot, ns);
        SlotWrites.Locked locked = writes.lock(session, namespace, slot);
        SlotState current = locked.state();
        if (current.isAtLeast(fenceAtLeast, floorAtLeast)) {
            return current;
        }
        if (!current.owner().isEmpty()
                && !current.released()
                && locked.now().isBefore(current.expiresAt())) {
            throw new SlotBusyException(namespace, slot, current.owner(), current.expiresAt());
        }
        SlotState advanced = current.advancedTo(fenceAtLeast, floorAtLeast);
        writes.write(session, namespace, slot, advanced, locked.exists());
        return advanced;
    }

    @Override
    public NamespaceSnapshot inspect(String namespace) {
        requireNamespace(namespace);
        return calls.transaction(
                OperationNames.inspect(namespace),
                session -> {
                    Namespace ns =
                            read(session, namespace, tables.namespaceRead)
                                    .orElseThrow(() -> new NamespaceNotFoundException(namespace));
                    Instant now = writes.now(session);
                    List<SlotView> views = new ArrayList<>();
                    long since = marks.tick();
                    try (PreparedStatement s = session.prepare(tables.slotsOf)) {
                        s.setString(1, namespace);
                        try (ResultSet r = s.executeQuery()) {
                            while (r.next()) {
                                int slot = r.getInt(1);
                                SlotState state =
                                        SlotRows.read(r, 2, tables.where(namespace, slot)).state();
                                if (!state.equals(SlotState.NEVER_HELD)) {
                                    marks.read(namespace, slot, state, since);
                                    views.add(state.toView(namespace, slot));
                                }
                            }
                        }
                    }
                    return new NamespaceSnapshot(ns, now, views);
                });
    }

    /** Forgets what this store saw, as after a purge of everything it saw. */
    void forget() {
        marks.clear();
    }
}
