package io.cosid.store.zookeeper.internal;

import io.cosid.store.RangeState;
import io.cosid.store.StoreCorruptedException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongConsumer;
import org.apache.zookeeper.data.Stat;

/**
 * Everything a {@link ZooKeeperRangeStore} keeps about one key while it runs: the node's state it
 * writes over next, the identity and highest state of the node (never forgotten), the coalescer of
 * its acquires and its races with other processes.
 */
final class RangeKeyState {

    /**
     * What this store last saw of the key's node; state is null for an unused parent placeholder.
     */
    record Seen(RangeState state, int version, byte[] data) {}

    /**
     * The identity of the key's node (czxid) and the highest state this store saw on it, as of the
     * write that made that state (mzxid). Counters never go down and a sealed key never unseals, so
     * a later state below it was written by hand (docs/contract.md, "Corrupt data").
     */
    private record Mark(long czxid, long mzxid, long highestNext, boolean sealed) {}

    /**
     * The key's line of writers as last seen ({@link WriterLine}): its data version (the check a
     * write outside the line carries) and how many writers were in it; absent: not created yet.
     */
    record LineSeen(boolean exists, int version, int writers) {
        static final LineSeen ABSENT = new LineSeen(false, 0, 0);

        static LineSeen of(Reply r) {
            return r != null && r.ok() && r.stat() != null
                    ? new LineSeen(true, r.stat().getVersion(), r.stat().getNumChildren())
                    : ABSENT;
        }
    }

    /**
     * This store's seat in the key's line and what it knows of the line's current epoch ({@link
     * WriterLine}), kept between two acquires while the seat lingers. Used by one writer at a time
     * (the key's {@link AcquireCoalescer} turn); handed between writer and timer through {@link
     * #takeSeat} and {@link #leave}.
     */
    static final class Lingering {
        /** This writer's seat. */
        WriterLine.Seat seat;

        /** The epoch's schedule; null: read the line first. */
        TurnSchedule schedule;

        /** The line node's data version the schedule is for. */
        int epoch;

        /** This writer's next slot in the schedule. */
        int slot;

        /** A watch on the seat before slot {@link #beforeSlot}; null: none yet. */
        CompletableFuture<Boolean> before;

        /** The slot whose seat before {@link #before} watches. */
        int beforeSlot;

        /** A watch on the line node that completes when the epoch ends; null: none yet. */
        CompletableFuture<Boolean> epochEnded;

        Lingering(WriterLine.Seat seat) {
            this.seat = seat;
        }

        /** Forgets the epoch: the next turn reads the line first. */
        void forgetEpoch() {
            schedule = null;
            before = null;
            epochEnded = null;
        }
    }

    private static final long HOT_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final AtomicReference<Lingering> lingering = new AtomicReference<>();

    private final String key;
    private final String path;
    private final String line;
    private final AcquireCoalescer coalescer;

    /** The state to write over next; null: read first. */
    private volatile Seen seen;

    private volatile LineSeen lineSeen = LineSeen.ABSENT;

    private volatile boolean othersWrite;

    private volatile long landedAt = System.nanoTime() - 2 * HOT_NANOS;

    /** When this store last lost a race on the key (System.nanoTime). */
    private volatile long lostAt = System.nanoTime() - 2 * HOT_NANOS;

    private Mark mark;

    RangeKeyState(
            String key,
            String path,
            String line,
            AcquireCoalescer.Writer writer,
            LongConsumer givenUp) {
        this.key = key;
        this.path = path;
        this.line = line;
        this.coalescer = new AcquireCoalescer(writer, givenUp);
    }

    /** The key's name. */
    String key() {
        return key;
    }

    /** The key's node. */
    String path() {
        return path;
    }

    /** "range key 'k' (/cosid/range/k)", for messages. */
    String location() {
        return "range key '" + key + "' (" + path + ")";
    }

    AcquireCoalescer coalescer() {
        return coalescer;
    }

    /** The key's line of writers ({@link NodePaths#line}). */
    String line() {
        return line;
    }

    /**
     * Whether this store lost a race on the key in the last second: a write over the state it last
     * saw (not read in the same acquire) then carries a read behind it, so that the next lost race
     * costs no read of its own.
     */
    boolean hot() {
        return System.nanoTime() - lostAt < HOT_NANOS;
    }

    /** After a race lost to another writer. */
    void lost() {
        lostAt = System.nanoTime();
    }

    /**
     * Whether another process wrote the key since this store last saw it, as the last check showed
     * (a write over the state this store saw, or a read before one): while it does, an acquire
     * reads before it writes instead of sending a write that would fail.
     */
    boolean othersWrite() {
        return othersWrite;
    }

    /** Records what the last check of the state this store saw showed. */
    void othersWrite(boolean moved) {
        othersWrite = moved;
    }

    /** When this store's last acquire of the key landed (System.nanoTime). */
    long landedAt() {
        return landedAt;
    }

    /** After an acquire landed. */
    void landed() {
        landedAt = System.nanoTime();
    }

    /** The key's line as last seen. */
    LineSeen lineSeen() {
        return lineSeen;
    }

    /** Remembers the line as a read showed it. */
    void seeLine(LineSeen seen) {
        lineSeen = seen;
    }

    /** Whether this store keeps a seat in the key's line between acquires. */
    boolean seated() {
        return lingering.get() != null;
    }

    /** Keeps a seat in the key's line until the next acquire takes it or the store leaves it. */
    void linger(Lingering seat) {
        lingering.set(seat);
    }

    /** Takes the seat kept between acquires, if there is one. */
    Lingering takeSeat() {
        return lingering.getAndSet(null);
    }

    /** Takes the seat back from the key, unless an acquire took it first. */
    boolean leave(Lingering seat) {
        return lingering.compareAndSet(seat, null);
    }

    /** The state to write over next, or null when it must be read first. */
    Seen seen() {
        return seen;
    }

    /**
     * Remembers a state that was read or written as the one to write over next (a placeholder: read
     * next).
     */
    void see(Seen state) {
        seen = state.state() == null ? null : state;
    }

    /** Forgets the state to write over: the next write reads first. */
    void forget() {
        seen = null;
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
    synchronized void check(Stat stat, RangeState state) {
        long next = state == null ? 0 : state.next();
        boolean sealed = state != null && state.sealed();
        if (mark == null) {
            mark = new Mark(stat.getCzxid(), stat.getMzxid(), next, sealed);
            return;
        }
        if (mark.czxid() != stat.getCzxid()) {
            throw new StoreCorruptedException(
                    location(),
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
                    location(),
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
                    location(),
                    "it was sealed at "
                            + mark.highestNext()
                            + " and is unsealed now, behind the store's back");
        }
        mark = new Mark(mark.czxid(), stat.getMzxid(), next, sealed);
    }
}
