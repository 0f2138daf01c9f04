package io.cosid.store.jdbc;

import io.cosid.store.RangeExhaustedException;
import io.cosid.store.RangeSealedException;
import io.cosid.store.StoreCorruptedException;
import java.sql.SQLException;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Why a range write changed nothing, read after the fact by a second statement: the write's
 * condition held every guard, so the row shows which one failed. Nothing is written here.
 */
final class RangeRefusals {

    private RangeRefusals() {}

    /**
     * The refusal {@code write} met on {@code key}; null when the row shows no reason (it changed
     * between the write and this read), so the write may be sent again.
     */
    static @Nullable RuntimeException why(
            RangeTable table,
            Session session,
            RangeWrite write,
            String key,
            long value,
            @Nullable RangeMark mark)
            throws SQLException {
        Optional<RangeTable.Row> read = table.read(session, key);
        String where = table.where(key);
        if (read.isEmpty()) {
            // never seen and deleted since the upsert: send it again; seen: deleted by hand
            return mark == null ? null : gone(where, mark);
        }
        RangeTable.Row row = read.get();
        @Nullable RuntimeException tampered = tampered(where, key, row, mark);
        if (tampered != null) {
            return tampered;
        }
        if (row.state().sealed() && write != RangeWrite.SEAL) {
            return new RangeSealedException(key, row.state().next());
        }
        if (write == RangeWrite.ACQUIRE && row.state().next() > Long.MAX_VALUE - value) {
            return new RangeExhaustedException(key, row.state().next(), value);
        }
        return null;
    }

    /** The refusal of a row the store saw that is gone: deleted behind its back. */
    static StoreCorruptedException gone(String where, RangeMark mark) {
        return new StoreCorruptedException(
                where,
                "the row is gone, deleted behind the store's back; restore it at "
                        + mark.highest()
                        + " or higher, then reopen the stores (nothing was written)");
    }

    /**
     * The refusal of a row changed behind the store's back (inserted again, or lowered below what
     * the store saw); null when it is as the store knows it.
     */
    static @Nullable RuntimeException tampered(
            String where, String key, RangeTable.Row row, @Nullable RangeMark mark) {
        if (!row.key().equals(key)) {
            return new StoreCorruptedException(
                    where, "the row found by its key's hash holds key '" + row.key() + "'");
        }
        if (mark == null) {
            return null;
        }
        if (row.incarnation() != mark.incarnation()) {
            return new StoreCorruptedException(
                    where,
                    "the row was recreated: deleted and inserted again (incarnation "
                            + row.incarnation()
                            + ", this store saw "
                            + mark.incarnation()
                            + "); nothing was written");
        }
        if (mark.sealed() && !row.state().sealed()) {
            return new StoreCorruptedException(
                    where,
                    "the key was unsealed behind the store's back after this store saw it"
                            + " sealed; seal it again (nothing was written)");
        }
        if (row.state().next() < mark.highest()) {
            return new StoreCorruptedException(
                    where,
                    "next_value is "
                            + row.state().next()
                            + ", below "
                            + mark.highest()
                            + " this store saw: lowered behind its back; raise it to at least "
                            + mark.highest()
                            + " (nothing was written)");
        }
        return null;
    }
}
