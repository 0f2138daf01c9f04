package io.cosid.store.jdbc;

import io.cosid.store.Range;
import io.cosid.store.RangeState;
import io.cosid.store.RangeStore;
import io.cosid.store.StoreArguments;
import io.cosid.store.StoreCorruptedException;
import io.cosid.store.spi.OperationNames;
import io.cosid.store.spi.RangeHistory;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Ranges in a table ({@link RangeTable}): one statement per acquire, advance or seal, in autocommit
 * on a connection of the store's own ({@link JdbcCalls}), so one round trip. The store remembers,
 * per key, the row's incarnation, the highest {@code next} it saw and whether it saw it sealed
 * ({@link RangeHistory}), from every row any statement showed it, refused ones included, so that a
 * row changed behind its back is refused. A statement whose reply was lost may have landed: its
 * range is abandoned, a gap, never handed out (docs/contract.md, "Unknown outcomes"); the store's
 * next write on the key is guarded by the mark as before, which a landed write only raised the row
 * above.
 */
final class JdbcRangeStore implements RangeStore {

    /** The attempts of a write whose refusal the row could not explain (it changed in between). */
    private static final int ATTEMPTS = 3;

    private final JdbcCalls calls;
    private final RangeTable table;
    private final Map<String, RangeHistory> histories = new ConcurrentHashMap<>();

    JdbcRangeStore(JdbcCalls calls, RangeTable table) {
        this.calls = calls;
        this.table = table;
    }

    @Override
    public Range acquire(String key, long size) {
        StoreArguments.requireKey(key);
        StoreArguments.requireSize(size);
        long next = write(OperationNames.rangeAcquire(key), RangeStatement.ACQUIRE, key, size);
        return new Range(key, next - size, next);
    }

    @Override
    public Optional<RangeState> peek(String key) {
        StoreArguments.requireKey(key);
        return calls.autocommit(
                OperationNames.rangePeek(key),
                s -> {
                    // the mark as it was before the read: another thread of this store may raise
                    // it while the read runs, above what the read can show
                    RangeHistory history = history(key);
                    RangeHistory.Mark known = history.mark();
                    Optional<RangeTable.Row> row = table.read(s, key);
                    if (row.isEmpty()) {
                        if (known != null) {
                            throw history.gone(known);
                        }
                        return Optional.empty();
                    }
                    RangeRefusals.see(table, key, history, known, row.get());
                    return Optional.of(row.get().state());
                });
    }

    @Override
    public long advance(String key, long atLeast) {
        StoreArguments.requireKey(key);
        StoreArguments.requireAtLeast(atLeast);
        return write(OperationNames.rangeAdvance(key), RangeStatement.ADVANCE, key, atLeast);
    }

    @Override
    public long seal(String key) {
        StoreArguments.requireKey(key);
        return write(OperationNames.rangeSeal(key), RangeStatement.SEAL, key, 0);
    }

    @Override
    public SortedMap<String, RangeState> list() {
        return calls.autocommit(OperationNames.rangeList(), table::list);
    }

    /** Forgets every mark, as after a purge of everything. */
    void forget() {
        histories.clear();
    }

    /** Sends {@code write}; returns the row's {@code next} after it. */
    private long write(String operation, RangeStatement write, String key, long value) {
        RangeHistory history = history(key);
        return calls.autocommit(
                operation,
                s -> {
                    for (int attempt = 1; ; attempt++) {
                        RangeHistory.Mark known = history.mark();
                        RangeTable.Written written = table.send(s, write, key, value, known);
                        if (written != null) {
                            history.seen(
                                    known,
                                    written.incarnation(),
                                    RangeHistory.UNORDERED,
                                    written.next(),
                                    written.sealed());
                            return written.next();
                        }
                        RuntimeException refused =
                                RangeRefusals.why(table, s, write, key, value, history, known);
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

    private RangeHistory history(String key) {
        return histories.computeIfAbsent(key, k -> new RangeHistory(table.where(k)));
    }
}
