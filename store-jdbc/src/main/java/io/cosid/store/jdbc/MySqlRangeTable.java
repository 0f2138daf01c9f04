package io.cosid.store.jdbc;

import io.cosid.store.spi.RangeHistory;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Range writes on MySQL and MariaDB, which have no {@code UPDATE ... RETURNING}: the update sets
 * the row's new {@code next_value} through {@code LAST_INSERT_ID(expr)}, which the server sends
 * back in the statement's own reply (the driver's generated keys), so a write on a key the store
 * saw is one statement and one round trip, as on PostgreSQL. A key the store never saw costs two
 * more, once: an {@code INSERT IGNORE} that creates its row at 0 when missing, and a read of the
 * row's incarnation.
 */
final class MySqlRangeTable extends RangeTable {

    private final Map<RangeStatement, String> updates = new EnumMap<>(RangeStatement.class);
    private final String create;

    MySqlRangeTable(TableNames names) {
        super(names, Dialect.MYSQL);
        for (RangeStatement w : RangeStatement.values()) {
            updates.put(w, update(w));
        }
        this.create =
                "INSERT IGNORE INTO "
                        + table
                        + " (key_hash, range_key, next_value, sealed, "
                        + Provenance.COLUMNS
                        + ") VALUES ("
                        + HASH
                        + ", ?, 0, false, "
                        + Provenance.values(Dialect.MYSQL)
                        + ")";
    }

    private String update(RangeStatement w) {
        String v = "v.value";
        return "UPDATE "
                + table
                + " r JOIN (SELECT CAST(? AS SIGNED) AS value) v SET r.next_value ="
                + " LAST_INSERT_ID("
                + w.next.replace("$v", v)
                + "), r.sealed = "
                + w.sealed
                + ", r."
                + Provenance.assignments(Dialect.MYSQL).replace(", ", ", r.")
                + " WHERE r.key_hash = "
                + HASH
                + " AND r.range_key = ? AND r.incarnation = ? AND r.next_value >= ?"
                + " AND (r.sealed OR NOT ?) AND "
                + Provenance.sure("r.", Dialect.MYSQL)
                + " AND "
                + w.guard.replace("$v", v);
    }

    @Override
    @Nullable Written send(
            Session session,
            RangeStatement write,
            String key,
            long value,
            RangeHistory.@Nullable Mark mark)
            throws SQLException {
        RangeHistory.Mark known = mark == null ? firstUse(session, key) : mark;
        if (known == null) {
            return null;
        }
        try (PreparedStatement s =
                session.prepareReturningKeys(Objects.requireNonNull(updates.get(write)))) {
            bindGuarded(s, value, key, known);
            if (s.executeUpdate() != 1) {
                return null;
            }
            long next = 0; // LAST_INSERT_ID(0) comes back as no key at all
            try (ResultSet keys = s.getGeneratedKeys()) {
                if (keys.next()) {
                    next = keys.getLong(1);
                }
            }
            return new Written(next, known.identity(), write == RangeStatement.SEAL);
        }
    }

    /**
     * Creates the key's row at 0 when missing, then reads what the store must know of it; null when
     * the row shows a reason to refuse (the caller reads it again to say which).
     */
    private RangeHistory.@Nullable Mark firstUse(Session session, String key) throws SQLException {
        try (PreparedStatement s = session.prepare(create)) {
            s.setBytes(1, keyHash(key));
            s.setString(2, key);
            s.executeUpdate();
        }
        Optional<Row> row = read(session, key);
        if (row.isEmpty() || !row.get().key().equals(key)) {
            return null;
        }
        return new RangeHistory.Mark(
                row.get().incarnation(),
                RangeHistory.UNORDERED,
                row.get().state().next(),
                row.get().state().sealed());
    }
}
