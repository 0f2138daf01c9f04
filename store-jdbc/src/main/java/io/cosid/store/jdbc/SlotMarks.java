package io.cosid.store.jdbc;

import io.cosid.store.SlotView;
import io.cosid.store.StoreCorruptedException;
import io.cosid.store.spi.SlotHistory;
import io.cosid.store.spi.SlotState;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Every slot this store read or wrote, as it last saw it (docs/contract.md, "Corrupt data"): a
 * slot's row deleted, or changed against {@link SlotHistory}, behind the store's back is refused.
 *
 * <p>Threads of one store run on connections of their own, so a statement may return a state older
 * than one another thread wrote and recorded while the statement ran. Each mark therefore carries
 * the tick at which it was recorded, and a statement takes the tick before it is sent ({@link
 * #tick}): a row is judged only against marks recorded before the statement began, which it must
 * show or follow; a mark is only ever replaced by a state that follows it.
 */
final class SlotMarks {

    /** A state this store saw, recorded at {@code tick}. */
    private record Mark(SlotView view, long tick) {}

    private final SlotTables tables;
    private final AtomicLong ticks = new AtomicLong();
    private final Map<String, Mark> seen = new ConcurrentHashMap<>();

    SlotMarks(SlotTables tables) {
        this.tables = tables;
    }

    /** The current tick: take it before sending a statement whose rows are then judged. */
    long tick() {
        return ticks.get();
    }

    /**
     * Remembers {@code state} of a slot as read by a statement sent at {@code since}, refusing one
     * that cannot follow the last state this store saw before then.
     *
     * @throws StoreCorruptedException if it cannot
     */
    void read(String namespace, int slot, SlotState state, long since) {
        SlotView view = state.toView(namespace, slot);
        Mark mark = seen.get(key(namespace, slot));
        if (mark != null && mark.tick() <= since) {
            String why = SlotHistory.whyNotAfter(mark.view(), view);
            if (why != null) {
                throw new StoreCorruptedException(
                        tables.where(namespace, slot),
                        why
                                + " behind this store's back; using it could hand out a fence and"
                                + " a window twice ("
                                + SlotHistory.repair(mark.view())
                                + ")");
            }
        }
        record(namespace, slot, view);
    }

    /** Remembers {@code state} as this store wrote it (committed). */
    void wrote(String namespace, int slot, SlotState state) {
        record(namespace, slot, state.toView(namespace, slot));
    }

    private void record(String namespace, int slot, SlotView view) {
        seen.compute(
                key(namespace, slot),
                (k, known) ->
                        known == null || SlotHistory.whyNotAfter(known.view(), view) == null
                                ? new Mark(view, ticks.incrementAndGet())
                                : known);
    }

    /**
     * A slot whose row a statement sent at {@code since} found missing: never held to a store that
     * never saw it.
     *
     * @throws StoreCorruptedException if this store saw it before then: deleted behind its back
     */
    SlotState missing(String namespace, int slot, long since) {
        Mark mark = seen.get(key(namespace, slot));
        if (mark != null && mark.tick() <= since) {
            throw new StoreCorruptedException(
                    tables.where(namespace, slot),
                    "the slot was deleted behind this store's back after it saw fence "
                            + mark.view().fence()
                            + "; starting it over at fence 1 could hand out a fence and a window"
                            + " twice ("
                            + SlotHistory.repair(mark.view())
                            + ")");
        }
        return SlotState.NEVER_HELD;
    }

    /** The slots of {@code namespace} this store saw, below {@code limit}. */
    List<Integer> of(String namespace, int limit) {
        return seen.values().stream()
                .map(Mark::view)
                .filter(v -> v.namespace().equals(namespace) && v.slot() < limit)
                .map(SlotView::slot)
                .toList();
    }

    /** Forgets everything, as after a purge. */
    void clear() {
        seen.clear();
    }

    private static String key(String namespace, int slot) {
        return namespace + "/" + slot;
    }
}
