package io.cosid.store.zookeeper.internal.ranges;

import io.cosid.store.RangeState;
import io.cosid.store.StoreCorruptedException;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

/**
 * The identity of a range key's node (czxid) and the highest state a store saw on it, as of the
 * write that made that state (mzxid), never forgotten. Counters never go down and a sealed key
 * never unseals, so a later state below it was written by hand (docs/contract.md, "Corrupt data").
 */
final class KeyMark {

    private record Mark(long czxid, long mzxid, long highestNext, boolean sealed) {}

    private final String location;
    private @Nullable Mark mark;

    /**
     * @param location the key as messages name it
     */
    KeyMark(String location) {
        this.location = location;
    }

    /** The highest next value this store saw on the key; 0 before it saw any. */
    synchronized long highestNext() {
        return mark == null ? 0 : mark.highestNext();
    }

    /** Whether this store has seen the key's node. */
    synchronized boolean known() {
        return mark != null;
    }

    /**
     * The node must be the one this store has always used (same czxid), and its state must not be
     * below the highest this store saw on it: a counter lowered or a key unsealed by hand would
     * hand out values twice. Only a state written after the marked one (larger mzxid) is judged; an
     * older reply that arrives late (a concurrent read in this store) is neither judged nor
     * remembered.
     *
     * @param state the node's state, null for an unused parent placeholder
     */
    synchronized void check(Stat stat, @Nullable RangeState state) {
        long next = state == null ? 0 : state.next();
        boolean sealed = state != null && state.sealed();
        Mark mark = this.mark;
        if (mark == null) {
            this.mark = new Mark(stat.getCzxid(), stat.getMzxid(), next, sealed);
            return;
        }
        if (mark.czxid() != stat.getCzxid()) {
            throw new StoreCorruptedException(
                    location,
                    "the node was recreated behind this store's back (czxid "
                            + stat.getCzxid()
                            + ", expected "
                            + mark.czxid()
                            + ")");
        }
        if (stat.getMzxid() <= mark.mzxid()) {
            return;
        }
        if (next < mark.highestNext()) {
            throw new StoreCorruptedException(
                    location,
                    "its next value "
                            + next
                            + " is below "
                            + mark.highestNext()
                            + ", which this store saw there before: it was lowered behind the"
                            + " store's back, and values from "
                            + next
                            + " on may have been handed out already (raise it again"
                            + " with advance to at least "
                            + mark.highestNext()
                            + ")");
        }
        if (mark.sealed() && !sealed) {
            throw new StoreCorruptedException(
                    location,
                    "it was sealed at "
                            + mark.highestNext()
                            + " and is unsealed now, behind the store's back");
        }
        this.mark = new Mark(mark.czxid(), stat.getMzxid(), next, sealed);
    }
}
