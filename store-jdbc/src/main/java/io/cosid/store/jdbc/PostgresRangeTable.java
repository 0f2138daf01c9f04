package io.cosid.store.jdbc;

import io.cosid.store.spi.RangeHistory;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Range writes on PostgreSQL, each one statement in autocommit, so one round trip: for a key the
 * store never saw, an upsert that inserts the row or changes it; for a key it saw, an update; both
 * return the row with {@code RETURNING}.
 */
final class PostgresRangeTable extends RangeTable {

    private final Map<RangeStatement, String> upserts = new EnumMap<>(RangeStatement.class);
    private final Map<RangeStatement, String> updates = new EnumMap<>(RangeStatement.class);

    PostgresRangeTable(TableNames names) {
        super(names, Dialect.POSTGRESQL);
        for (RangeStatement w : RangeStatement.values()) {
            upserts.put(w, upsert(w));
            updates.put(w, update(w));
        }
    }

    private String upsert(RangeStatement w) {
        String v = "EXCLUDED.next_value";
        return "INSERT INTO "
                + table
                + " AS r (key_hash, range_key, next_value, sealed, "
                + Provenance.COLUMNS
                + ") VALUES ("
                + HASH
                + ", ?, ?, "
                + w.insertsSealed
                + ", "
                + Provenance.values(Dialect.POSTGRESQL)
                + ") ON CONFLICT (key_hash) DO UPDATE SET next_value = "
                + w.next.replace("$v", v)
                + ", sealed = "
                + w.sealed
                + ", written_origin = EXCLUDED.written_origin"
                + ", written_replicated = EXCLUDED.written_replicated"
                + " WHERE r.range_key = EXCLUDED.range_key"
                + " AND (r.written_origin = EXCLUDED.written_origin OR r.written_replicated) AND "
                + w.guard.replace("$v", v)
                + " RETURNING r.next_value, r.incarnation, r.sealed";
    }

    private String update(RangeStatement w) {
        String v = "v.value";
        return "UPDATE "
                + table
                + " AS r SET next_value = "
                + w.next.replace("$v", v)
                + ", sealed = "
                + w.sealed
                + ", "
                + Provenance.assignments(Dialect.POSTGRESQL)
                + " FROM (SELECT ?::bigint AS value) v WHERE r.key_hash = "
                + HASH
                + " AND r.range_key = ? AND r.incarnation = ? AND r.next_value >= ?"
                + " AND (r.sealed OR NOT ?) AND "
                + Provenance.sure("r.", Dialect.POSTGRESQL)
                + " AND "
                + w.guard.replace("$v", v)
                + " RETURNING r.next_value, r.incarnation, r.sealed";
    }

    @Override
    @Nullable Written send(
            Session session,
            RangeStatement write,
            String key,
            long value,
            RangeHistory.@Nullable Mark mark)
            throws SQLException {
        Objects.requireNonNull(key, "key");
        try (PreparedStatement s =
                session.prepare(
                        Objects.requireNonNull(
                                mark == null ? upserts.get(write) : updates.get(write)))) {
            if (mark == null) {
                s.setBytes(1, keyHash(key));
                s.setString(2, key);
                s.setLong(3, write.insertsSealed ? 0 : value);
            } else {
                bindGuarded(s, value, key, mark);
            }
            try (ResultSet r = s.executeQuery()) {
                if (!r.next()) {
                    return null;
                }
                return new Written(r.getLong(1), r.getLong(2), r.getBoolean(3));
            }
        }
    }
}
