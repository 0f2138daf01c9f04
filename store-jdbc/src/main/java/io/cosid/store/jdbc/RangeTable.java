package io.cosid.store.jdbc;

import io.cosid.store.RangeState;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * A PostgreSQL table of range keys, and the statements that write and read it.
 *
 * <p>Every write is one statement in autocommit, so one round trip: for a key the store never saw,
 * an upsert that inserts the row or changes it; for a key it saw, an update whose condition holds
 * the guards (the same incarnation, not below the store's mark, and the write's own: not sealed, no
 * overflow), so a row changed behind the store's back is refused and left as it is. The row's lock
 * queues contending writers in the database: no retries. Only a statement that changed nothing is
 * followed by a read of why ({@link RangeRefusals}).
 *
 * <p>Rows are found by the SHA-256 of their key (a key may be 1,024 characters, more bytes than a
 * PostgreSQL index entry holds); the key itself is checked too.
 */
final class RangeTable {

    private static final String HASH = "sha256(convert_to(?, 'UTF8'))";

    private final String table;
    private final Map<RangeWrite, String> upserts = new EnumMap<>(RangeWrite.class);
    private final Map<RangeWrite, String> updates = new EnumMap<>(RangeWrite.class);
    private final String read;
    private final String list;

    /**
     * The range table of {@code names}.
     *
     * @param names the store's table names
     */
    RangeTable(TableNames names) {
        String name = names.ranges();
        this.table = name;
        for (RangeWrite w : RangeWrite.values()) {
            upserts.put(w, upsert(w));
            updates.put(w, update(w));
        }
        this.read =
                "SELECT range_key, next_value, sealed, incarnation FROM "
                        + name
                        + " WHERE key_hash = "
                        + HASH;
        this.list = "SELECT range_key, next_value, sealed FROM " + name;
    }

    private String upsert(RangeWrite w) {
        String v = "EXCLUDED.next_value";
        return "INSERT INTO "
                + table
                + " AS r (key_hash, range_key, next_value, sealed) VALUES ("
                + HASH
                + ", ?, ?, "
                + w.insertsSealed
                + ") ON CONFLICT (key_hash) DO UPDATE SET next_value = "
                + w.next.replace("$v", v)
                + ", sealed = "
                + w.sealed
                + " WHERE r.range_key = EXCLUDED.range_key AND "
                + w.guard.replace("$v", v)
                + " RETURNING r.next_value, r.incarnation, r.sealed";
    }

    private String update(RangeWrite w) {
        String v = "v.value";
        return "UPDATE "
                + table
                + " AS r SET next_value = "
                + w.next.replace("$v", v)
                + ", sealed = "
                + w.sealed
                + " FROM (SELECT ?::bigint AS value) v WHERE r.key_hash = "
                + HASH
                + " AND r.range_key = ? AND r.incarnation = ? AND r.next_value >= ?"
                + " AND (r.sealed OR NOT ?) AND "
                + w.guard.replace("$v", v)
                + " RETURNING r.next_value, r.incarnation, r.sealed";
    }

    /** Where {@code key}'s row is, as messages name it. */
    String where(String key) {
        return "table " + table + ", range key '" + key + "'";
    }

    /**
     * What a write left: the row's {@code next} and what the store knows of the row now.
     *
     * @param next the row's {@code next_value} after the write
     * @param mark the row's incarnation and the highest {@code next} seen
     */
    record Written(long next, RangeMark mark) {}

    /**
     * Sends {@code write} with {@code value} once; null when it changed nothing.
     *
     * @param mark what the store knows of the row; null when it never saw it
     * @throws SQLException if the database failed; whether the statement landed is then unknown
     */
    @Nullable Written send(
            Session session, RangeWrite write, String key, long value, @Nullable RangeMark mark)
            throws SQLException {
        Objects.requireNonNull(key, "key");
        try (PreparedStatement s =
                session.prepare(
                        Objects.requireNonNull(
                                mark == null ? upserts.get(write) : updates.get(write)))) {
            if (mark == null) {
                s.setString(1, key);
                s.setString(2, key);
                s.setLong(3, write.insertsSealed ? 0 : value);
            } else {
                s.setLong(1, value);
                s.setString(2, key);
                s.setString(3, key);
                s.setLong(4, mark.incarnation());
                s.setLong(5, mark.highest());
                s.setBoolean(6, mark.sealed());
            }
            try (ResultSet r = s.executeQuery()) {
                if (!r.next()) {
                    return null;
                }
                long next = r.getLong(1);
                long incarnation = r.getLong(2);
                boolean sealed = r.getBoolean(3);
                return new Written(
                        next,
                        mark == null
                                ? new RangeMark(incarnation, next, sealed)
                                : mark.seen(next, sealed));
            }
        }
    }

    /**
     * The row of {@code key} as it is.
     *
     * @param key the key
     * @return its key, state and incarnation; empty when there is none
     */
    Optional<Row> read(Session session, String key) throws SQLException {
        try (PreparedStatement s = session.prepare(read)) {
            s.setString(1, key);
            try (ResultSet r = s.executeQuery()) {
                if (!r.next()) {
                    return Optional.empty();
                }
                return Optional.of(
                        new Row(
                                r.getString(1),
                                new RangeState(r.getLong(2), r.getBoolean(3)),
                                r.getLong(4)));
            }
        }
    }

    /**
     * A row as read.
     *
     * @param key the key it holds
     * @param state its {@code next} and whether it is sealed
     * @param incarnation its incarnation
     */
    record Row(String key, RangeState state, long incarnation) {}

    /** Every key with its state, in the order of {@link String#compareTo}. */
    SortedMap<String, RangeState> list(Session session) throws SQLException {
        SortedMap<String, RangeState> all = new TreeMap<>();
        try (PreparedStatement s = session.prepare(list);
                ResultSet r = s.executeQuery()) {
            while (r.next()) {
                all.put(r.getString(1), new RangeState(r.getLong(2), r.getBoolean(3)));
            }
        }
        return Collections.unmodifiableSortedMap(all);
    }
}
