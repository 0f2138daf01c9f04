package io.cosid.store.jdbc;

import io.cosid.store.RangeState;
import io.cosid.store.spi.RangeHistory;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collections;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * A table of range keys, and the statements that write and read it; each dialect sends its writes
 * its own way ({@link PostgresRangeTable}, {@link MySqlRangeTable}).
 *
 * <p>Every write's condition holds the guards (the same incarnation, not below the store's mark,
 * sealed if the store saw it sealed, and the write's own: not sealed, no overflow), so a row
 * changed behind the store's back is refused and left as it is. The row's lock queues contending
 * writers in the database: no retries. Only a statement that changed nothing is followed by a read
 * of why ({@link RangeRefusals}).
 *
 * <p>Rows are found by the SHA-256 of their key's UTF-8 bytes (a key may be 1,024 characters, more
 * bytes than an index entry holds), computed here rather than by the server, which would hash it in
 * every statement; the key itself is checked too.
 */
abstract sealed class RangeTable permits PostgresRangeTable, MySqlRangeTable {

    /** The table's name. */
    final String table;

    /** Where a statement takes a key's hash: bound, computed here ({@link #keyHash}). */
    static final String HASH = "?";

    /** The dialect the statements are in. */
    final Dialect dialect;

    private final String read;
    private final String list;

    RangeTable(TableNames names, Dialect dialect) {
        this.table = names.ranges();
        this.dialect = dialect;
        this.read =
                "SELECT range_key, next_value, sealed, incarnation, "
                        + Provenance.select(dialect)
                        + " FROM "
                        + table
                        + " WHERE key_hash = "
                        + HASH;
        this.list = "SELECT range_key, next_value, sealed FROM " + table;
    }

    /** The range table of {@code names} in {@code dialect}. */
    static RangeTable of(TableNames names, Dialect dialect) {
        return dialect == Dialect.POSTGRESQL
                ? new PostgresRangeTable(names)
                : new MySqlRangeTable(names);
    }

    /** Where {@code key}'s row is, as messages name it. */
    String where(String key) {
        return "table " + table + ", range key '" + key + "'";
    }

    /**
     * What a write left of the row.
     *
     * @param next the row's {@code next_value} after the write
     * @param incarnation the row's incarnation
     * @param sealed whether the row is sealed after the write
     */
    record Written(long next, long incarnation, boolean sealed) {}

    /**
     * Sends {@code write} with {@code value} once; null when it changed nothing.
     *
     * @param mark what the store knows of the row; null when it never saw it
     * @throws SQLException if the database failed; whether the statement landed is then unknown
     */
    abstract @Nullable Written send(
            Session session,
            RangeStatement write,
            String key,
            long value,
            RangeHistory.@Nullable Mark mark)
            throws SQLException;

    /**
     * Binds a guarded update's parameters, in the order both dialects' updates take them: the
     * write's value, the key (for its hash and itself), and what the store knows of the row.
     */
    static void bindGuarded(PreparedStatement s, long value, String key, RangeHistory.Mark mark)
            throws SQLException {
        s.setLong(1, value);
        s.setBytes(2, keyHash(key));
        s.setString(3, key);
        s.setLong(4, mark.identity());
        s.setLong(5, mark.highestNext());
        s.setBoolean(6, mark.sealed());
    }

    /**
     * The row of {@code key} as it is.
     *
     * @param key the key
     * @return its key, state and incarnation; empty when there is none
     */
    Optional<Row> read(Session session, String key) throws SQLException {
        try (PreparedStatement s = session.prepare(read)) {
            s.setBytes(1, keyHash(key));
            try (ResultSet r = s.executeQuery()) {
                if (!r.next()) {
                    return Optional.empty();
                }
                return Optional.of(
                        new Row(
                                r.getString(1),
                                new RangeState(r.getLong(2), r.getBoolean(3)),
                                r.getLong(4),
                                new Provenance(r.getLong(5), r.getBoolean(6), r.getLong(7))));
            }
        }
    }

    /** The SHA-256 of {@code key}'s UTF-8 bytes: what column {@code key_hash} holds. */
    static byte[] keyHash(String key) {
        try {
            return MessageDigest.getInstance("SHA-256")
                    .digest(key.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    /**
     * A row as read.
     *
     * @param key the key it holds
     * @param state its {@code next} and whether it is sealed
     * @param incarnation its incarnation
     * @param provenance where it was last written
     */
    record Row(String key, RangeState state, long incarnation, Provenance provenance) {}

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
