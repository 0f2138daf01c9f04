package io.cosid.store.jdbc;

import java.util.Collections;

/**
 * The statements of the slot side, over three tables: namespaces, one row per slot of every
 * namespace (created with the namespace, so that concurrent acquires can lock distinct free rows
 * with {@code FOR UPDATE SKIP LOCKED} instead of racing to insert one), and owner indexes. Every
 * statement that reads the store's now takes the {@link StoreClock} parameter first.
 */
final class SlotTables {

    /** The highest fence: a slot that reached it is never free again. */
    private static final String MAX_FENCE = Long.toString(Long.MAX_VALUE);

    /** The parameters of a slot's state ({@link SlotRows#bind}). */
    private static final String VALUES = "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?";

    final Dialect dialect;
    final String namespaceRead;
    final String namespaceLock;
    final String namespaceList;
    final String namespaceInsert;
    final String namespaceRaise;
    final String slotsCreate;
    final String acquireView;
    final String missing;
    final String slotLock;
    final String slotRead;
    final String slotUpdate;
    final String slotInsert;
    final String ownerUpsert;
    final String slotsOf;
    final String now;
    private final TableNames names;

    SlotTables(TableNames names, Dialect dialect) {
        this.names = names;
        this.dialect = dialect;
        String ns = names.namespaces();
        namespaceRead = "SELECT slot_limit, tolerance_ms FROM " + ns + " WHERE name = ?";
        namespaceLock = namespaceRead + " FOR UPDATE";
        namespaceList = "SELECT name, slot_limit, tolerance_ms FROM " + ns;
        namespaceInsert =
                dialect.insertSkipping(ns)
                        + " (name, slot_limit, tolerance_ms) VALUES (?, ?, ?)"
                        + dialect.skipExisting("name");
        namespaceRaise = "UPDATE " + ns + " SET slot_limit = ? WHERE name = ?";
        slotsCreate = slotsCreate(names, dialect);
        acquireView = acquireView(names, dialect);
        missing =
                "SELECT g.n FROM "
                        + dialect.series()
                        + " WHERE NOT EXISTS (SELECT 1 FROM "
                        + names.slots()
                        + " s WHERE s.namespace = ? AND s.slot = g.n) ORDER BY g.n";
        slotUpdate =
                "UPDATE "
                        + names.slots()
                        + " SET "
                        + assignments()
                        + ", "
                        + Provenance.assignments(dialect)
                        + " WHERE namespace = ? AND slot = ?";
        slotInsert =
                dialect.insertSkipping(names.slots())
                        + " ("
                        + SlotRows.COLUMNS
                        + ", "
                        + Provenance.COLUMNS
                        + ", namespace, slot) VALUES ("
                        + VALUES
                        + ", "
                        + Provenance.values(dialect)
                        + ", ?, ?)"
                        + dialect.skipExisting("namespace, slot");
        ownerUpsert =
                "INSERT INTO "
                        + names.owners()
                        + " (namespace, owner_key, slots) VALUES (?, ?, ?)"
                        + dialect.replacing("namespace, owner_key", "slots");
        slotRead =
                "SELECT "
                        + SlotRows.select(dialect)
                        + " FROM "
                        + names.slots()
                        + " WHERE namespace = ? AND slot = ?";
        slotLock = slotLock(slotRead, dialect);
        slotsOf =
                "SELECT slot, "
                        + SlotRows.select(dialect)
                        + " FROM "
                        + names.slots()
                        + " WHERE namespace = ? ORDER BY slot";
        now = "SELECT " + dialect.now();
    }

    /** Creates the slot rows from the second parameter to the third, never held. */
    private static String slotsCreate(TableNames names, Dialect dialect) {
        return dialect.insertSkipping(names.slots())
                + " (namespace, slot, "
                + SlotRows.COLUMNS
                + ", "
                + Provenance.COLUMNS
                + ") SELECT ?, g.n, '', false, 0, 0, 0, 0, 0, 0, 0, 0, 0, '', "
                + Provenance.values(dialect)
                + " FROM "
                + dialect.series()
                + dialect.skipExisting("namespace, slot");
    }

    /**
     * The store's now and the slot's row, locked: one row even when the slot's row is missing (its
     * columns then null).
     */
    private static String slotLock(String slotRead, Dialect dialect) {
        return "SELECT "
                + dialect.now()
                + ", s.* FROM (SELECT 1 AS one) one LEFT JOIN ("
                + slotRead
                + " FOR UPDATE) s ON true";
    }

    /** {@code column = ?} for every column of a slot's state, in {@link SlotRows#bind}'s order. */
    private static String assignments() {
        StringBuilder set = new StringBuilder();
        for (String column : SlotRows.COLUMNS.split(", ", -1)) {
            set.append(set.length() == 0 ? "" : ", ").append(column).append(" = ?");
        }
        return set.toString();
    }

    /**
     * The new term's slot write followed by the owner index's, in one statement where the database
     * lets a {@code WITH} clause write (PostgreSQL): the index is written only when the slot was.
     * Elsewhere the two are sent one after the other ({@link #ownerUpsert}).
     *
     * @param exists whether the slot's row exists (else it is inserted)
     */
    String termWrite(boolean exists) {
        return "WITH s AS ("
                + (exists ? slotUpdate : slotInsert)
                + " RETURNING slot) INSERT INTO "
                + names.owners()
                + " (namespace, owner_key, slots) SELECT ?, ?, ? FROM s"
                + dialect.replacing("namespace, owner_key", "slots");
    }

    /** The namespace, the owner's index and the store's now. */
    private static String acquireView(TableNames names, Dialect dialect) {
        return "SELECT n.slot_limit, n.tolerance_ms, o.slots, "
                + dialect.now()
                + " FROM "
                + names.namespaces()
                + " n LEFT JOIN "
                + names.owners()
                + " o ON o.namespace = n.name AND o.owner_key = ? WHERE n.name = ?";
    }

    /**
     * Part 1: the {@code first} first choices, locked unless another transaction holds them; part
     * 2: the lowest free slot nobody else has locked; part 3: the {@code read} slots (those this
     * store saw and the first choices), read without a lock, to check them against what the store
     * saw and to tell a missing row from a locked one. Parameters: namespace, the first choices;
     * namespace, limit, now; namespace, the read slots.
     */
    String candidates(int first, int read) {
        String select =
                "SELECT slot, "
                        + SlotRows.select(dialect)
                        + " FROM "
                        + names.slots()
                        + " WHERE namespace = ? AND ";
        return "SELECT 1 AS part, c.* FROM ("
                + select
                + "slot IN ("
                + placeholders(first)
                + ") FOR UPDATE SKIP LOCKED) c"
                + " UNION ALL SELECT 2, f.* FROM ("
                + select
                + "slot >= 0 AND slot < ? AND (owner_key = '' OR released"
                + " OR expires_ms <= ?) AND fence < "
                + MAX_FENCE
                + " ORDER BY slot LIMIT 1 FOR UPDATE SKIP LOCKED) f"
                + " UNION ALL SELECT 3, m.* FROM ("
                + select
                + "slot IN ("
                + placeholders(read)
                + ")) m";
    }

    /** {@code n} parameters, or a NULL that matches nothing when {@code n} is 0. */
    private static String placeholders(int n) {
        return n == 0 ? "NULL" : String.join(", ", Collections.nCopies(n, "?"));
    }

    /** Where a slot's row is, as messages name it. */
    String where(String namespace, int slot) {
        return "table " + names.slots() + ", slot " + slot + " of namespace '" + namespace + "'";
    }

    /** Where a namespace's row is, as messages name it. */
    String where(String namespace) {
        return "table " + names.namespaces() + ", namespace '" + namespace + "'";
    }

    /** Where an owner index's row is, as messages name it. */
    String whereOwner(String namespace, String ownerKey) {
        return "table "
                + names.owners()
                + ", owner index of '"
                + ownerKey
                + "' in namespace '"
                + namespace
                + "'";
    }
}
