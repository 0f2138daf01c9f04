package io.cosid.store.zookeeper.internal;

import io.cosid.store.RangeState;
import io.cosid.store.StoreCorruptedException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongConsumer;
import org.apache.zookeeper.data.Stat;

/**
 * Everything a {@link ZooKeeperRangeStore} keeps about one key while it runs: the node's state it
 * writes over next, the key's line as last read, the identity and highest state of the node (never
 * forgotten), the coalescer of its acquires and what its races with other processes showed.
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
     * The key's line as last read ({@link Seats}): its data version (the check every range write
     * carries) and the seats waiting then, minus those this store served since; absent: not created
     * yet.
     */
    record LineSeen(boolean exists, int version, List<Seats.Seat> waiting) {
        static final LineSeen ABSENT = new LineSeen(false, 0, List.of());
    }

    private final String key;
    private final String path;
    private final String line;
    private final AcquireCoalescer coalescer;

    /** The results this store's writes created and nobody read yet, with when (nanoTime). */
    private final Map<String, Long> results = new ConcurrentHashMap<>();

    /** Results this store read and deletes with its next write or post. */
    private final Set<String> read = ConcurrentHashMap.newKeySet();

    /** The state to write over next; null: read first. */
    private volatile Seen seen;

    private volatile LineSeen lineSeen = LineSeen.ABSENT;

    private volatile boolean othersWrite;

    /** Whether this store may not write the key's line (its ACL): no seats, no serving. */
    private volatile boolean plain;

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

    /** The key's line node, parent of its seats ({@link NodePaths#line}). */
    String line() {
        return line;
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

    /** The key's line as last seen. */
    LineSeen lineSeen() {
        return lineSeen;
    }

    /** Remembers the line as a read showed it, or as this store's write left it. */
    void seeLine(LineSeen seen) {
        lineSeen = seen;
    }

    /** Whether this store may not write the key's line: it writes by compare-and-set alone. */
    boolean plain() {
        return plain;
    }

    /** After the line's ACL refused this store. */
    void plainFromNowOn() {
        plain = true;
    }

    /** After this store read its seat's result: its next write or post deletes it. */
    void readResult(String result) {
        read.add(result);
    }

    /** The results this store read and has not deleted yet. */
    List<String> resultsToDelete() {
        return List.copyOf(read);
    }

    /** After a write or post deleted them (or found them gone). */
    void resultsDeleted(Collection<String> gone) {
        read.removeAll(gone);
    }

    /** A result this store's write created, for {@link #leftOver}. */
    void served(String result) {
        results.put(result, System.nanoTime());
    }

    /**
     * The results this store created that a listing of the line still shows {@code afterNanos}
     * after they were written: their owners never came for them. Forgets the results a listing no
     * longer shows once it is surely younger than them (their owners took them).
     */
    List<String> leftOver(List<String> listed, long afterNanos) {
        if (results.isEmpty()) {
            return List.of();
        }
        Set<String> shown = new HashSet<>(listed);
        long now = System.nanoTime();
        List<String> old = new ArrayList<>();
        results.forEach(
                (result, at) -> {
                    if (!shown.contains(result)) {
                        if (now - at > afterNanos / 2) {
                            results.remove(result, at);
                        }
                    } else if (now - at > afterNanos && results.remove(result, at)) {
                        old.add(result);
                    }
                });
        return old;
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
