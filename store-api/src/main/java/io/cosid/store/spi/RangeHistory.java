package io.cosid.store.spi;

import io.cosid.store.StoreCorruptedException;
import org.jspecify.annotations.Nullable;

/**
 * What one store saw of one range key, and the rule a later state of the key must keep
 * (docs/contract.md, "RangeStore" and "Corrupt data"): the node is the one the store always used
 * (same identity), its {@code next} never goes below the highest the store saw, and a key seen
 * sealed stays sealed. A state that breaks the rule was written by hand, and handing out a range
 * from it could hand out values twice, so it is refused with {@link StoreCorruptedException} and
 * not remembered.
 *
 * <p>Every state any reply shows is judged and remembered, whatever the operation does with it
 * next: a read that leads to a refusal (a sealed key, an exhausted counter) teaches the store as
 * much as one that leads to a write. A backend keeps one instance per key and store, for as long as
 * the store runs, and supplies only how it knows a node's identity (ZooKeeper's czxid, a row's
 * incarnation, an in-memory generation) and, where it has one, the order of the node's writes.
 *
 * <p>Thread-safe. Replies of one store's concurrent requests may arrive out of order, so a state is
 * judged against what the store knew when the request was sent ({@link #mark()} taken before
 * sending), or, where the backend orders the node's writes (ZooKeeper's mzxid), only when it was
 * written after the state the mark holds.
 */
public final class RangeHistory {

    /** The order of a backend that cannot order a node's writes. */
    public static final long UNORDERED = Long.MIN_VALUE;

    /**
     * What a store knows of a key's node.
     *
     * @param identity the node's identity (czxid, incarnation, generation): set when the node is
     *     created, never changed
     * @param order the order of the write that made the remembered state, or {@link #UNORDERED}
     * @param highestNext the highest {@code next} the store saw on the node
     * @param sealed whether the store saw the node sealed
     */
    public record Mark(long identity, long order, long highestNext, boolean sealed) {}

    private final String location;
    private @Nullable Mark mark;

    /**
     * A key's history, empty until the store sees the key.
     *
     * @param location the key as messages name it (for example {@code "range key 'orders'"})
     */
    public RangeHistory(String location) {
        this.location = location;
    }

    /**
     * What the store knows now; take it before sending a request whose reply is judged by {@link
     * #seen(Mark, long, long, long, boolean)}.
     *
     * @return the mark, null while the store never saw the key's node
     */
    public synchronized @Nullable Mark mark() {
        return mark;
    }

    /**
     * The highest {@code next} the store saw on the key.
     *
     * @return that value; 0 before the store saw the key's node
     */
    public synchronized long highestNext() {
        return mark == null ? 0 : mark.highestNext();
    }

    /**
     * Whether the store saw the key's node.
     *
     * @return true once a state was remembered
     */
    public synchronized boolean known() {
        return mark != null;
    }

    /**
     * Judges a state of the key's node that a read or a write's reply showed, and remembers it when
     * it keeps the rule. A state older than the mark (by {@code order}) is neither judged nor
     * remembered.
     *
     * @param before the mark as it was when the request was sent, null if the store knew nothing;
     *     ignored where {@code order} orders the node's writes (the current mark is used)
     * @param identity the node's identity as the reply shows it
     * @param order the order of the write that made the state, or {@link #UNORDERED}
     * @param next the node's {@code next}
     * @param sealed whether the node is sealed
     * @throws StoreCorruptedException if the node was recreated, lowered or unsealed since the
     *     store saw it
     */
    public synchronized void seen(
            @Nullable Mark before, long identity, long order, long next, boolean sealed) {
        Mark known = mark;
        if (known == null) {
            mark = new Mark(identity, order, next, sealed);
            return;
        }
        if (identity != known.identity()) {
            throw recreated(identity, known.identity());
        }
        Mark judge = before;
        if (order != UNORDERED) {
            if (order <= known.order()) {
                return;
            }
            judge = known;
        }
        if (judge != null) {
            String broken = whyNotAfter(judge, next, sealed);
            if (broken != null) {
                throw new StoreCorruptedException(location, broken);
            }
        }
        mark =
                new Mark(
                        identity,
                        Math.max(order, known.order()),
                        Math.max(next, known.highestNext()),
                        sealed || known.sealed());
    }

    /**
     * The refusal of a key whose node is gone though the store saw it: deleted behind its back.
     * Restarting the counter at 0 would hand out values again.
     *
     * @param known what the store saw of the node
     * @return the exception to throw
     */
    public StoreCorruptedException gone(Mark known) {
        return new StoreCorruptedException(
                location,
                "the node (row) this store saw at next "
                        + known.highestNext()
                        + " was deleted behind its back; restarting it at 0 could reissue values."
                        + " Restore it at "
                        + known.highestNext()
                        + " or higher (advance, from a store that did not see it)");
    }

    /** Why a node at {@code next}/{@code sealed} cannot follow {@code known}, or null. */
    private @Nullable String whyNotAfter(Mark known, long next, boolean sealed) {
        if (next < known.highestNext()) {
            return "its next value "
                    + next
                    + " is below "
                    + known.highestNext()
                    + ", which this store saw there before: it was lowered behind the store's"
                    + " back, and values from "
                    + next
                    + " on may have been handed out already (raise it again with advance to at"
                    + " least "
                    + known.highestNext()
                    + ", from a store that did not see it)";
        }
        if (known.sealed() && !sealed) {
            return "it was seen sealed at "
                    + known.highestNext()
                    + " and is unsealed now, behind the store's back (seal it again)";
        }
        return null;
    }

    private StoreCorruptedException recreated(long found, long expected) {
        return new StoreCorruptedException(
                location,
                "the node was recreated behind this store's back: deleted and created again"
                        + " (identity "
                        + found
                        + ", this store saw "
                        + expected
                        + ")");
    }
}
