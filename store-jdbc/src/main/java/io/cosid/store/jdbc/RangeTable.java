package io.cosid.store.jdbc;

import io.cosid.store.RangeExhaustedException;
import io.cosid.store.RangeSealedException;
import io.cosid.store.StoreCorruptedException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Objects;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * A PostgreSQL table of range keys, and the one statement that acquires a range from it.
 *
 * <p>An acquire is one statement in autocommit, so one round trip: with no {@link RangeMark} for
 * the key, an upsert that inserts the row at {@code size} or adds {@code size} to it; with a mark,
 * an update whose condition holds the guards (the same incarnation, not sealed, not below the mark,
 * no overflow), so a row changed behind the store's back is refused and left as it is. The row's
 * lock queues contending writers in the database: no retries, served in the order they came. Only
 * when the statement changed nothing does a second one read why.
 */
final class RangeTable {

    private static final Pattern NAME = Pattern.compile("[a-z_][a-z0-9_]{0,47}");

    private final String table;
    private final String upsert;
    private final String update;
    private final String read;

    /**
     * The table {@code name} (lower-case letters, digits, underscores).
     *
     * @param name the table's name
     */
    RangeTable(String name) {
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException(
                    "table name '"
                            + name
                            + "' must be 1 to 48 lower-case letters, digits or underscores,"
                            + " starting with a letter or underscore");
        }
        this.table = name;
        this.upsert =
                "INSERT INTO "
                        + name
                        + " AS r (range_key, next_value) VALUES (?, ?)"
                        + " ON CONFLICT (range_key) DO UPDATE"
                        + " SET next_value = r.next_value + EXCLUDED.next_value"
                        + " WHERE NOT r.sealed"
                        + " AND r.next_value <= 9223372036854775807 - EXCLUDED.next_value"
                        + " RETURNING r.next_value, r.incarnation";
        this.update =
                "UPDATE "
                        + name
                        + " SET next_value = next_value + ?"
                        + " WHERE range_key = ? AND incarnation = ? AND NOT sealed"
                        + " AND next_value >= ? AND next_value <= 9223372036854775807 - ?"
                        + " RETURNING next_value, incarnation";
        this.read = "SELECT next_value, sealed, incarnation FROM " + name + " WHERE range_key = ?";
    }

    /** The statement that creates the table when it is missing. */
    String createStatement() {
        return "CREATE TABLE IF NOT EXISTS "
                + table
                + " (range_key varchar(255) PRIMARY KEY,"
                + " next_value bigint NOT NULL CHECK (next_value >= 0),"
                + " sealed boolean NOT NULL DEFAULT false,"
                + " incarnation bigint GENERATED ALWAYS AS IDENTITY)";
    }

    /** Creates the table when it is missing. */
    void create(Connection connection) throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.execute(createStatement());
        }
    }

    /**
     * A range granted by one acquire.
     *
     * @param start the first value
     * @param end the value after the last
     * @param mark what the store knows of the row now
     */
    record Granted(long start, long end, RangeMark mark) {}

    /**
     * Acquires {@code size} values of {@code key} in one statement (autocommit).
     *
     * @param connection an autocommit connection
     * @param key the range key
     * @param size how many values, 1 or more
     * @param mark what the store knows of the row; null when it never saw it
     * @return the range and the row's mark after it
     * @throws RangeSealedException if the key is sealed (nothing written)
     * @throws RangeExhaustedException if the key cannot grow by {@code size} (nothing written)
     * @throws StoreCorruptedException if the row was deleted, inserted again or lowered behind the
     *     store's back (nothing written)
     * @throws SQLException if the database failed; whether the statement landed is then unknown
     */
    Granted acquire(Connection connection, String key, long size, @Nullable RangeMark mark)
            throws SQLException {
        Objects.requireNonNull(key, "key");
        // a refusal is read after the fact: when the read shows nothing wrong, the row changed
        // between the two statements (a repair, say), and the statement is tried again
        for (int attempt = 1; ; attempt++) {
            Granted granted =
                    mark == null
                            ? upsert(connection, key, size)
                            : update(connection, key, size, mark);
            if (granted != null) {
                return granted;
            }
            RuntimeException refused = refusal(connection, key, size, mark);
            if (refused != null) {
                throw refused;
            }
            if (attempt == 3) {
                throw new StoreCorruptedException(
                        "table " + table + ", range key '" + key + "'",
                        "the row changed between each acquire and the read of why it was refused,"
                                + " three times: something else writes it (nothing was written)");
            }
        }
    }

    private @Nullable Granted upsert(Connection connection, String key, long size)
            throws SQLException {
        try (PreparedStatement s = connection.prepareStatement(upsert)) {
            s.setString(1, key);
            s.setLong(2, size);
            try (ResultSet r = s.executeQuery()) {
                if (!r.next()) {
                    return null;
                }
                long next = r.getLong(1);
                return new Granted(next - size, next, new RangeMark(r.getLong(2), next));
            }
        }
    }

    private @Nullable Granted update(Connection connection, String key, long size, RangeMark mark)
            throws SQLException {
        try (PreparedStatement s = connection.prepareStatement(update)) {
            s.setLong(1, size);
            s.setString(2, key);
            s.setLong(3, mark.incarnation());
            s.setLong(4, mark.highest());
            s.setLong(5, size);
            try (ResultSet r = s.executeQuery()) {
                if (!r.next()) {
                    return null;
                }
                long next = r.getLong(1);
                return new Granted(next - size, next, mark.seen(next));
            }
        }
    }

    /**
     * Why an acquire changed nothing, read by a second statement; null when the row shows no reason
     * (it changed in between).
     */
    private @Nullable RuntimeException refusal(
            Connection connection, String key, long size, @Nullable RangeMark mark)
            throws SQLException {
        try (PreparedStatement s = connection.prepareStatement(read)) {
            s.setString(1, key);
            try (ResultSet r = s.executeQuery()) {
                String where = "table " + table + ", range key '" + key + "'";
                if (!r.next()) {
                    // never seen and deleted since the upsert: try again; seen: deleted by hand
                    return mark == null
                            ? null
                            : new StoreCorruptedException(
                                    where,
                                    "the row is gone, deleted behind the store's back; restore it"
                                            + " at "
                                            + mark.highest()
                                            + " or higher, then reopen the stores (nothing was"
                                            + " written)");
                }
                long next = r.getLong(1);
                boolean sealed = r.getBoolean(2);
                long incarnation = r.getLong(3);
                if (mark != null && incarnation != mark.incarnation()) {
                    return new StoreCorruptedException(
                            where,
                            "the row was deleted and inserted again (incarnation "
                                    + incarnation
                                    + ", this store saw "
                                    + mark.incarnation()
                                    + "); nothing was written");
                }
                if (sealed) {
                    return new RangeSealedException(key, next);
                }
                if (mark != null && next < mark.highest()) {
                    return new StoreCorruptedException(
                            where,
                            "next_value is "
                                    + next
                                    + ", below "
                                    + mark.highest()
                                    + " this store saw: lowered behind its back; raise it to at"
                                    + " least "
                                    + mark.highest()
                                    + " (nothing was written)");
                }
                if (next > Long.MAX_VALUE - size) {
                    return new RangeExhaustedException(key, next, size);
                }
                return null;
            }
        }
    }
}
