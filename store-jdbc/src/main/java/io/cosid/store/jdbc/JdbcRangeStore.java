package io.cosid.store.jdbc;

import io.cosid.store.Range;
import io.cosid.store.RangeState;
import io.cosid.store.RangeStore;
import io.cosid.store.StoreArguments;
import io.cosid.store.StoreCorruptedException;
import io.cosid.store.StoreUnavailableException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * Ranges in a PostgreSQL table ({@link RangeTable}): one statement per acquire, advance or seal, on
 * a connection from the data source in autocommit. Under construction: a data source that hands out
 * the caller's transactional connection (Spring's transaction-aware proxies) is not yet unwrapped,
 * so until then give it a plain one. The store remembers, per key, the row's incarnation and the
 * highest {@code next} it saw, so that a row changed behind its back is refused.
 *
 * <p>Under construction (issue 35): no operation timeout yet beyond the pool's and the driver's.
 */
final class JdbcRangeStore implements RangeStore {

    /** The attempts of a write whose refusal the row could not explain (it changed in between). */
    private static final int ATTEMPTS = 3;

    private final DataSource dataSource;
    private final RangeTable table;
    private final Map<String, RangeMark> marks = new ConcurrentHashMap<>();
    private volatile boolean closed;

    JdbcRangeStore(DataSource dataSource, RangeTable table) {
        this.dataSource = dataSource;
        this.table = table;
    }

    @Override
    public Range acquire(String key, long size) {
        StoreArguments.requireKey(key);
        StoreArguments.requireSize(size);
        long next = write(RangeWrite.ACQUIRE, key, size);
        return new Range(key, next - size, next);
    }

    @Override
    public Optional<RangeState> peek(String key) {
        StoreArguments.requireKey(key);
        return call(
                c -> {
                    Optional<RangeTable.Row> row = table.read(c, key);
                    RangeMark mark = marks.get(key);
                    if (row.isEmpty()) {
                        if (mark != null) {
                            throw RangeRefusals.gone(table.where(key), mark);
                        }
                        return Optional.empty();
                    }
                    RuntimeException tampered =
                            RangeRefusals.tampered(table.where(key), row.get(), mark);
                    if (tampered != null) {
                        throw tampered;
                    }
                    remember(key, new RangeMark(row.get().incarnation(), row.get().state().next()));
                    return Optional.of(row.get().state());
                });
    }

    @Override
    public long advance(String key, long atLeast) {
        StoreArguments.requireKey(key);
        StoreArguments.requireAtLeast(atLeast);
        return write(RangeWrite.ADVANCE, key, atLeast);
    }

    @Override
    public long seal(String key) {
        StoreArguments.requireKey(key);
        return write(RangeWrite.SEAL, key, 0);
    }

    @Override
    public SortedMap<String, RangeState> list() {
        return call(table::list);
    }

    /** Stops the store: later calls are refused. */
    void close() {
        closed = true;
    }

    /** Sends {@code write}; returns the row's {@code next} after it. */
    private long write(RangeWrite write, String key, long value) {
        return call(
                c -> {
                    for (int attempt = 1; ; attempt++) {
                        RangeMark mark = marks.get(key);
                        RangeTable.Written written = table.send(c, write, key, value, mark);
                        if (written != null) {
                            remember(key, written.mark());
                            return written.next();
                        }
                        RuntimeException refused =
                                RangeRefusals.why(table, c, write, key, value, mark);
                        if (refused != null) {
                            throw refused;
                        }
                        if (attempt == ATTEMPTS) {
                            throw new StoreCorruptedException(
                                    table.where(key),
                                    "the row changed between each write and the read of why it"
                                            + " was refused, "
                                            + ATTEMPTS
                                            + " times: something else writes it");
                        }
                    }
                });
    }

    /** Keeps the higher of what is known and {@code seen}, for the same incarnation. */
    private void remember(String key, RangeMark seen) {
        marks.merge(
                key,
                seen,
                (known, now) ->
                        known.incarnation() == now.incarnation() ? known.seen(now.highest()) : now);
    }

    /** Work on one connection. */
    @FunctionalInterface
    private interface Work<T> {
        T run(Connection connection) throws SQLException;
    }

    private <T> T call(Work<T> work) {
        if (closed) {
            throw new IllegalStateException("the store is closed");
        }
        try (Connection c = dataSource.getConnection()) {
            if (!c.getAutoCommit()) {
                c.setAutoCommit(true);
            }
            return work.run(c);
        } catch (SQLException e) {
            throw unavailable(e);
        }
    }

    private static StoreUnavailableException unavailable(@Nullable SQLException e) {
        return new StoreUnavailableException(
                "jdbc",
                e == null
                        ? "no connection"
                        : e.getMessage() + " (SQLState " + e.getSQLState() + ")",
                e);
    }
}
