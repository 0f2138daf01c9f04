package io.cosid.store.jdbc;

import io.cosid.store.RangeExhaustedException;
import io.cosid.store.RangeSealedException;
import io.cosid.store.StoreCorruptedException;
import io.cosid.store.spi.RangeHistory;
import java.sql.SQLException;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Why a range write changed nothing, read after the fact by a second statement: the write's
 * condition held every guard, so the row shows which one failed. Nothing is written here; what the
 * row shows is remembered, as every read's row is.
 */
final class RangeRefusals {

    private RangeRefusals() {}

    /**
     * The refusal {@code write} met on {@code key}; null when the row shows no reason (it changed
     * between the write and this read), so the write may be sent again. The row read is judged and
     * remembered like any other ({@link RangeHistory}): a refusal teaches the store as much as a
     * write.
     *
     * @param known what the store knew when it sent the write; null when it never saw the key
     */
    static @Nullable RuntimeException why(
            RangeTable table,
            Session session,
            RangeStatement write,
            String key,
            long value,
            RangeHistory history,
            RangeHistory.@Nullable Mark known)
            throws SQLException {
        Optional<RangeTable.Row> read = table.read(session, key);
        if (read.isEmpty()) {
            // never seen and deleted since the upsert: send it again; seen: deleted by hand
            return known == null ? null : history.gone(known);
        }
        RangeTable.Row row = read.get();
        try {
            see(table, key, history, known, row);
        } catch (StoreCorruptedException e) {
            return e;
        }
        if (row.state().sealed() && write != RangeStatement.SEAL) {
            return new RangeSealedException(key, row.state().next());
        }
        if (write == RangeStatement.ACQUIRE && row.state().next() > Long.MAX_VALUE - value) {
            return new RangeExhaustedException(key, row.state().next(), value);
        }
        return null;
    }

    /**
     * Judges and remembers a row read for {@code key}: it must hold that key (rows are found by the
     * key's hash), be sure to hold every write acknowledged on it ({@link Provenance}) and keep the
     * rule of {@link RangeHistory}.
     *
     * @param known what the store knew when it sent the read
     * @throws StoreCorruptedException if the row was changed behind the store's back
     */
    static void see(
            RangeTable table,
            String key,
            RangeHistory history,
            RangeHistory.@Nullable Mark known,
            RangeTable.Row row) {
        if (!row.key().equals(key)) {
            throw new StoreCorruptedException(
                    table.where(key),
                    "the row found by its key's hash holds key '" + row.key() + "'");
        }
        if (!row.provenance().sure()) {
            throw row.provenance().refusal(table.where(key), table.dialect);
        }
        history.seen(
                known,
                row.incarnation(),
                RangeHistory.UNORDERED,
                row.state().next(),
                row.state().sealed());
    }
}
