package io.cosid.store.jdbc;

import io.cosid.store.Namespace;
import io.cosid.store.NamespaceNotFoundException;
import io.cosid.store.SlotLease;
import io.cosid.store.SlotsExhaustedException;
import io.cosid.store.StoreArguments;
import io.cosid.store.spi.NamespaceRules;
import io.cosid.store.spi.SlotChoiceOrder;
import io.cosid.store.spi.SlotState;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * An acquire, one transaction of three statements and its commit: read the namespace, the owner's
 * index and the store's now; lock the first choices and the lowest free slot ({@code FOR UPDATE
 * SKIP LOCKED}, so that instances starting together take distinct slots instead of queueing on one)
 * and read the slots this store saw, to check them; write the new term and the owner index. The
 * slot's row lock holds from the read of now to the commit, so nobody changes the slot between the
 * decision and the write.
 */
final class SlotAcquire {

    /** What an acquire needs to know before it chooses. */
    private record View(Namespace namespace, List<Integer> owned, Instant now) {}

    /** The term an acquire wrote, not yet committed. */
    record Started(SlotLease lease, SlotState state) {}

    /**
     * One try of an acquire, as one transaction's work: it remembers the term it wrote, so that a
     * commit whose reply never came can be settled by what was written.
     */
    final class Attempt {
        private final String namespace;
        private final String ownerKey;
        private final Duration ttl;
        private final OptionalInt preferred;
        private final String nonce;
        private @Nullable Started written;

        private Attempt(
                String namespace,
                String ownerKey,
                Duration ttl,
                OptionalInt preferred,
                String nonce) {
            this.namespace = namespace;
            this.ownerKey = ownerKey;
            this.ttl = ttl;
            this.preferred = preferred;
            this.nonce = nonce;
        }

        /** Chooses a free slot and writes its new term in {@code session}. */
        Started run(Session session) throws SQLException {
            written = SlotAcquire.this.run(session, namespace, ownerKey, ttl, preferred, nonce);
            return written;
        }

        /** The term this try wrote; null if it wrote none. */
        @Nullable Started written() {
            return written;
        }

        /** The nonce the written term carries. */
        String nonce() {
            return nonce;
        }
    }

    /** A new try of an acquire, with a nonce of its own. */
    Attempt attempt(String namespace, String ownerKey, Duration ttl, OptionalInt preferred) {
        return new Attempt(namespace, ownerKey, ttl, preferred, UUID.randomUUID().toString());
    }

    private final SlotTables tables;
    private final SlotMarks marks;
    private final StoreClock clock;

    SlotAcquire(SlotTables tables, SlotMarks marks, StoreClock clock) {
        this.tables = tables;
        this.marks = marks;
        this.clock = clock;
    }

    /** Chooses a free slot and writes its new term, carrying {@code nonce}, in {@code session}. */
    Started run(
            Session session,
            String namespace,
            String ownerKey,
            Duration ttl,
            OptionalInt preferred,
            String nonce)
            throws SQLException {
        long since = marks.tick();
        View view = view(session, namespace, ownerKey);
        Namespace ns = view.namespace();
        preferred.ifPresent(slot -> StoreArguments.requireSlot(slot, ns));
        List<Integer> first = SlotChoiceOrder.firstChoices(ns, view.owned(), preferred);
        Map<Integer, SlotState> free = new LinkedHashMap<>();
        SortedSet<Integer> lowest = new TreeSet<>();
        Set<Integer> absent = new TreeSet<>();
        lockCandidates(session, ns, first, view.now(), since, free, lowest, absent);
        for (int slot : absent) {
            free.putIfAbsent(slot, marks.missing(namespace, slot, since));
        }
        int slot = choose(ns, first, free, lowest);
        boolean exists = !absent.contains(slot);
        SlotState term =
                Objects.requireNonNull(free.get(slot))
                        .startTerm(ownerKey, view.now(), ttl, ns.tolerance());
        List<Integer> owned = NamespaceRules.ownerIndexAfter(slot, view.owned());
        writeTerm(session, namespace, slot, exists, term, nonce, ownerKey, owned);
        return new Started(term.toLease(namespace, slot), term);
    }

    /**
     * Writes the term and the owner index: one statement where the database lets a {@code WITH}
     * clause write, else the slot then the index.
     *
     * @throws LostRace if the slot's row was created first by another acquire
     */
    private void writeTerm(
            Session session,
            String namespace,
            int slot,
            boolean exists,
            SlotState term,
            String nonce,
            String ownerKey,
            List<Integer> owned)
            throws SQLException {
        String index = NamespaceRows.ownerIndex(owned);
        if (tables.dialect.writableCte) {
            try (PreparedStatement s = session.prepare(tables.termWrite(exists))) {
                SlotRows.bind(s, 1, term, nonce);
                s.setString(SlotRows.COUNT + 1, namespace);
                s.setInt(SlotRows.COUNT + 2, slot);
                bindOwner(s, SlotRows.COUNT + 3, namespace, ownerKey, index);
                if (s.executeUpdate() != 1) {
                    throw new LostRace();
                }
            }
            return;
        }
        try (PreparedStatement s =
                session.prepare(exists ? tables.slotUpdate : tables.slotInsert)) {
            SlotRows.bind(s, 1, term, nonce);
            s.setString(SlotRows.COUNT + 1, namespace);
            s.setInt(SlotRows.COUNT + 2, slot);
            if (s.executeUpdate() != 1) {
                throw new LostRace();
            }
        }
        try (PreparedStatement s = session.prepare(tables.ownerUpsert)) {
            bindOwner(s, 1, namespace, ownerKey, index);
            s.executeUpdate();
        }
    }

    private static void bindOwner(
            PreparedStatement s, int first, String namespace, String ownerKey, String index)
            throws SQLException {
        s.setString(first, namespace);
        s.setString(first + 1, ownerKey);
        s.setString(first + 2, index);
    }

    private View view(Session session, String namespace, String ownerKey) throws SQLException {
        try (PreparedStatement s = session.prepare(tables.acquireView)) {
            clock.bind(s, 1);
            s.setString(2, ownerKey);
            s.setString(3, namespace);
            try (ResultSet r = s.executeQuery()) {
                if (!r.next()) {
                    throw new NamespaceNotFoundException(namespace);
                }
                Namespace ns =
                        NamespaceRows.namespace(
                                tables.where(namespace), namespace, r.getLong(1), r.getLong(2));
                String index = r.getString(3);
                List<Integer> owned =
                        index == null
                                ? List.of()
                                : NamespaceRows.ownerIndex(
                                        tables.whereOwner(namespace, ownerKey), index);
                return new View(ns, owned, Instant.ofEpochMilli(r.getLong(4)));
            }
        }
    }

    /**
     * Locks the free ones among the first choices and the lowest free slot; reads the slots this
     * store saw and the first choices, checking every row read against what the store saw before.
     * Adds to {@code absent} the slots whose rows are missing (deleted by hand, as a namespace
     * creates every row at {@code define}): first choices and slots this store saw that the
     * unlocked read did not find, and, only when no existing row is free, every missing row of the
     * namespace (a read of every slot number, so not on every acquire: a row deleted by hand is
     * taken when preferred or owned, or once no other slot is free; store-jdbc/README.md).
     */
    private void lockCandidates(
            Session session,
            Namespace ns,
            List<Integer> first,
            Instant now,
            long since,
            Map<Integer, SlotState> free,
            SortedSet<Integer> lowest,
            Set<Integer> absent)
            throws SQLException {
        String namespace = ns.name();
        Set<Integer> read = new TreeSet<>(marks.of(namespace, ns.limit()));
        read.addAll(first);
        Set<Integer> found = new TreeSet<>();
        boolean noneFree = true;
        try (PreparedStatement s = session.prepare(tables.candidates(first.size(), read.size()))) {
            int i = 1;
            s.setString(i++, namespace);
            for (int slot : first) {
                s.setInt(i++, slot);
            }
            s.setString(i++, namespace);
            s.setInt(i++, ns.limit());
            s.setLong(i++, now.toEpochMilli());
            s.setString(i++, namespace);
            for (int slot : read) {
                s.setInt(i++, slot);
            }
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    int part = r.getInt(1);
                    int slot = r.getInt(2);
                    String where = tables.where(namespace, slot);
                    SlotState state =
                            SlotRows.read(r, 3, where).requireSure(where, tables.dialect).state();
                    marks.read(namespace, slot, state, since);
                    if (part == 3) {
                        found.add(slot);
                    } else if (state.isFreeAt(now)) {
                        free.putIfAbsent(slot, state);
                        if (part == 2) {
                            lowest.add(slot);
                            noneFree = false;
                        }
                    }
                }
            }
        }
        for (int slot : read) {
            if (!found.contains(slot)) {
                absent.add(slot);
            }
        }
        if (noneFree) {
            for (int slot : missing(session, ns)) {
                absent.add(slot);
                lowest.add(slot);
            }
        }
    }

    /** The slots below the limit whose rows are missing (deleted by hand). */
    private List<Integer> missing(Session session, Namespace ns) throws SQLException {
        try (PreparedStatement s = session.prepare(tables.missing)) {
            s.setInt(1, 0);
            s.setInt(2, ns.limit() - 1);
            s.setString(3, ns.name());
            try (ResultSet r = s.executeQuery()) {
                List<Integer> slots = new ArrayList<>();
                while (r.next()) {
                    slots.add(r.getInt(1));
                }
                return slots;
            }
        }
    }

    /** The contract's choice order over what this acquire locked or found missing. */
    private static int choose(
            Namespace ns,
            List<Integer> first,
            Map<Integer, SlotState> free,
            SortedSet<Integer> lowest) {
        for (int slot : first) {
            if (free.containsKey(slot)) {
                return slot;
            }
        }
        @Nullable Integer slot = lowest.isEmpty() ? null : lowest.first();
        if (slot == null) {
            throw new SlotsExhaustedException(ns.name(), ns.limit());
        }
        return slot;
    }
}
