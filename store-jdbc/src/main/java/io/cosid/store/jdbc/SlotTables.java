package io.cosid.store.jdbc;

/**
 * The statements of the slot side on PostgreSQL, over three tables: namespaces, one row per slot of
 * every namespace (created with the namespace, so that concurrent acquires can lock distinct free
 * rows with {@code FOR UPDATE SKIP LOCKED} instead of racing to insert one), and owner indexes.
 * Every statement that reads the store's now takes the {@link StoreClock} parameter first.
 */
final class SlotTables {

    /** The highest fence: a slot that reached it is never free again. */
    private static final String MAX_FENCE = Long.toString(Long.MAX_VALUE);

    /** The parameters of a slot's state ({@link SlotRows#bind}). */
    private static final String VALUES = "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?";

    final String namespaceRead;
    final String namespaceLock;
    final String namespaceList;
    final String namespaceInsert;
    final String namespaceRaise;
    final String slotsCreate;
    final String acquireView;
    final String candidates;
    final String missing;
    final String termUpdate;
    final String termInsert;
    final String slotLock;
    final String slotRead;
    final String slotUpdate;
    final String slotInsert;
    final String slotsOf;
    final String now;
    private final TableNames names;

    SlotTables(TableNames names) {
        this.names = names;
        String ns = names.namespaces();
        namespaceRead = "SELECT slot_limit, tolerance_ms FROM " + ns + " WHERE name = ?";
        namespaceLock = namespaceRead + " FOR UPDATE";
        namespaceList = "SELECT name, slot_limit, tolerance_ms FROM " + ns;
        namespaceInsert =
                "INSERT INTO "
                        + ns
                        + " (name, slot_limit, tolerance_ms) VALUES (?, ?, ?)"
                        + " ON CONFLICT (name) DO NOTHING";
        namespaceRaise = "UPDATE " + ns + " SET slot_limit = ? WHERE name = ?";
        slotsCreate =
                "INSERT INTO "
                        + names.slots()
                        + " (namespace, slot, "
                        + SlotRows.COLUMNS
                        + ") SELECT ?, g, '', false, 0, 0, 0, 0, 0, 0, 0, 0, 0, ''"
                        + " FROM generate_series(?, ?) g ON CONFLICT (namespace, slot) DO NOTHING";
        acquireView = acquireView(names);
        candidates = candidates(names.slots());
        missing =
                "SELECT g FROM generate_series(0, ?) g WHERE NOT EXISTS (SELECT 1 FROM "
                        + names.slots()
                        + " s WHERE s.namespace = ? AND s.slot = g) ORDER BY g";
        slotUpdate = slotUpdate(names.slots());
        slotInsert = slotInsert(names.slots());
        String ownerUpsert = ownerUpsert(names.owners());
        termUpdate = "WITH s AS (" + slotUpdate + " RETURNING slot)" + ownerUpsert;
        termInsert = "WITH s AS (" + slotInsert + " RETURNING slot)" + ownerUpsert;
        slotRead =
                "SELECT "
                        + SlotRows.COLUMNS
                        + " FROM "
                        + names.slots()
                        + " WHERE namespace = ? AND slot = ?";
        slotLock =
                "SELECT "
                        + StoreClock.SQL
                        + ", s.* FROM (SELECT 1) one LEFT JOIN ("
                        + slotRead
                        + " FOR UPDATE) s ON true";
        slotsOf =
                "SELECT slot, "
                        + SlotRows.COLUMNS
                        + " FROM "
                        + names.slots()
                        + " WHERE namespace = ? ORDER BY slot";
        now = "SELECT " + StoreClock.SQL;
    }

    private static String slotUpdate(String slots) {
        return "UPDATE "
                + slots
                + " SET ("
                + SlotRows.COLUMNS
                + ") = ("
                + VALUES
                + ") WHERE namespace = ? AND slot = ?";
    }

    private static String slotInsert(String slots) {
        return "INSERT INTO "
                + slots
                + " ("
                + SlotRows.COLUMNS
                + ", namespace, slot) VALUES ("
                + VALUES
                + ", ?, ?) ON CONFLICT (namespace, slot) DO NOTHING";
    }

    /** The owner index written with the slot a {@code WITH s AS (...)} wrote: none when none. */
    private static String ownerUpsert(String owners) {
        return " INSERT INTO "
                + owners
                + " (namespace, owner_key, slots) SELECT ?, ?, ? FROM s"
                + " ON CONFLICT (namespace, owner_key) DO UPDATE SET slots = EXCLUDED.slots";
    }

    /**
     * The namespace, the owner's index, the store's now and how many of the namespace's slot rows
     * exist (fewer than the limit only when rows were deleted by hand).
     */
    private static String acquireView(TableNames names) {
        return "SELECT n.slot_limit, n.tolerance_ms, o.slots, "
                + StoreClock.SQL
                + ", (SELECT count(*) FROM "
                + names.slots()
                + " s WHERE s.namespace = n.name AND s.slot >= 0 AND s.slot < n.slot_limit) FROM "
                + names.namespaces()
                + " n LEFT JOIN "
                + names.owners()
                + " o ON o.namespace = n.name AND o.owner_key = ? WHERE n.name = ?";
    }

    /**
     * Part 1: the first choices, locked unless another transaction holds them; part 2: the lowest
     * free slot nobody else has locked; part 3: the slots this store saw, read without a lock, to
     * check them against what it saw.
     */
    private static String candidates(String slots) {
        String select =
                "SELECT slot, " + SlotRows.COLUMNS + " FROM " + slots + " WHERE namespace = ? AND ";
        return "SELECT 1, c.* FROM ("
                + select
                + "slot = ANY(?) FOR UPDATE SKIP LOCKED) c"
                + " UNION ALL SELECT 2, f.* FROM ("
                + select
                + "slot >= 0 AND slot < ? AND (owner_key = '' OR released"
                + " OR expires_ms <= ?) AND fence < "
                + MAX_FENCE
                + " ORDER BY slot LIMIT 1 FOR UPDATE SKIP LOCKED) f"
                + " UNION ALL SELECT 3, m.* FROM ("
                + select
                + "slot = ANY(?)) m";
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
