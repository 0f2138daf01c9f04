package io.cosid.store.zookeeper.internal.ranges;

import io.cosid.store.Range;
import io.cosid.store.RangeState;
import io.cosid.store.StoreCorruptedException;
import io.cosid.store.Ticker;
import io.cosid.store.spi.Deadline;
import io.cosid.store.spi.RangeHistory;
import io.cosid.store.zookeeper.internal.ranges.Seats.Seat;
import io.cosid.store.zookeeper.internal.wire.ConditionalWrite;
import io.cosid.store.zookeeper.internal.wire.Failures;
import io.cosid.store.zookeeper.internal.wire.NodeChange;
import io.cosid.store.zookeeper.internal.wire.NodePaths;
import io.cosid.store.zookeeper.internal.wire.Observations;
import io.cosid.store.zookeeper.internal.wire.PathCreator;
import io.cosid.store.zookeeper.internal.wire.Reads;
import io.cosid.store.zookeeper.internal.wire.Reply;
import io.cosid.store.zookeeper.internal.wire.Requests;
import io.cosid.store.zookeeper.internal.wire.WriteOutcome;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongConsumer;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

/**
 * One range key as a {@link ZooKeeperRangeStore} knows it, and the requests that read and write it:
 * this class alone changes what the store knows of the key (the node's state it writes over next,
 * the key's line as last read, the results it owes a delete, whether other processes write the
 * key), each change following a reply. How the protocol works: store-zookeeper/README.md.
 */
final class RangeKey {

    /** The most seats one write serves, so that a multi stays small. */
    static final int MAX_SERVED = 64;

    /** What the keys of one store share. */
    public record Shared(
            Reads reads,
            ConditionalWrite conditionalWrite,
            PathCreator pathCreator,
            Failures failures,
            Seats seats,
            Observations observations,
            RangeCounts counts,
            WriteLatency latency,
            RangeWaste waste,
            long leftoverNanos,
            Ticker ticker) {}

    /**
     * What this store last saw of the key's node; state is null for an unused parent placeholder.
     */
    record Seen(@Nullable RangeState state, int version, byte[] data) {}

    /**
     * The key's line as last read ({@link Seats}): its data version (the check every range write
     * carries) and the seats waiting then, minus those this store served since; absent: not created
     * yet.
     */
    record LineSeen(boolean exists, int version, List<Seat> waiting) {
        static final LineSeen ABSENT = new LineSeen(false, 0, List.of());
    }

    /**
     * What a read of a key showed: its node (null: unused), and for a writer waiting in the key's
     * line the range its seat was served with (null: none yet) and whether its seat is gone.
     */
    record Look(@Nullable Seen node, @Nullable Range served, boolean seatGone) {}

    private final String key;
    private final String path;
    private final String line;
    private final Shared shared;
    private final RangeHistory mark;
    private final AcquireCoalescer coalescer;

    /** The results this store's writes created and nobody read yet, with when (nanoTime). */
    private final Map<String, Long> results = new ConcurrentHashMap<>();

    /** Results this store read and deletes with its next write or post. */
    private final Set<String> read = ConcurrentHashMap.newKeySet();

    /** The state to write over next; null: read first. */
    private volatile @Nullable Seen seen;

    private volatile LineSeen lineSeen = LineSeen.ABSENT;

    private volatile boolean othersWrite;

    /** Whether this store may not write the key's line (its ACL): no seats, no serving. */
    private volatile boolean lineRefused;

    RangeKey(
            String key,
            String path,
            String line,
            Shared shared,
            AcquireCoalescer.Writer writer,
            LongConsumer givenUp) {
        this.key = key;
        this.path = path;
        this.line = line;
        this.shared = shared;
        this.mark = new RangeHistory(location());
        this.coalescer = new AcquireCoalescer(writer, givenUp);
    }

    /** The key's name. */
    String key() {
        return key;
    }

    /** "range key 'k' (/cosid/range/k)", for messages. */
    String location() {
        return "range key '" + key + "' (" + path + ")";
    }

    /** The key's line node, parent of its seats ({@link NodePaths#line}). */
    String line() {
        return line;
    }

    AcquireCoalescer coalescer() {
        return coalescer;
    }

    Shared shared() {
        return shared;
    }

    /**
     * Whether another process wrote the key since this store last saw it, as the last check showed
     * (a write over the state this store saw, or a read before one): while it does, an acquire
     * reads before it writes instead of sending a write that would fail.
     */
    boolean othersWrite() {
        return othersWrite;
    }

    /** The key's line as last seen. */
    LineSeen lineSeen() {
        return lineSeen;
    }

    /** Whether this store may not write the key's line: it writes by compare-and-set alone. */
    boolean lineRefused() {
        return lineRefused;
    }

    /** The state to write over next, or null when it must be read first. */
    @Nullable Seen seen() {
        return seen;
    }

    /**
     * Reads the key, its line and the writer's seat in one read-only multi: the listing before the
     * seat's result, so that a seat missing from it without a result was never served, and the
     * key's node last, so that a result's range ends at or below its next value.
     */
    Look read(Deadline deadline, @Nullable Seat mine) {
        List<Op> ops = new ArrayList<>(5);
        ops.add(Op.getData(line));
        ops.add(Op.getChildren(line));
        if (mine != null) {
            ops.add(Op.getData(mine.path()));
            ops.add(Op.getData(mine.result()));
        }
        ops.add(Op.getData(path));
        Reply r = shared.reads().one(deadline, h -> Requests.multi(h, ops));
        if (r.results() == null || r.results().size() != ops.size()) {
            throw shared.failures().unexpected(deadline, r);
        }
        List<Reply> replies = new ArrayList<>(ops.size());
        for (int i = 0; i < ops.size(); i++) {
            replies.add(Reply.ofRead(ops.get(i).getPath(), r.results().get(i)));
        }
        Seen before = seen;
        seeLine(replies.get(0), replies.get(1), mine);
        Seen node = seeNode(deadline, replies.get(replies.size() - 1));
        if (before != null && mine == null) {
            othersWrite = node == null || node.version() != before.version();
        }
        return mine == null ? new Look(node, null, false) : seat(mine, node, replies);
    }

    /**
     * Remembers the line's version and waiting seats as read; deletes a result its owner never came
     * for, written by this store long ago.
     */
    private void seeLine(Reply lineNode, Reply children, @Nullable Seat mine) {
        if (lineNode.is(Code.NOAUTH) || children.is(Code.NOAUTH)) {
            notAllowed(line);
        }
        List<String> listed = children.ok() ? children.children() : List.of();
        lineSeen =
                lineNode.ok()
                        ? new LineSeen(
                                true,
                                lineNode.stat().getVersion(),
                                Seats.waiting(line, listed).stream()
                                        .filter(s -> mine == null || !s.name().equals(mine.name()))
                                        .toList())
                        : LineSeen.ABSENT;
        leftOver(Seats.results(line, listed)).forEach(shared.seats()::delete);
    }

    /**
     * The results this store created that a listing of the line still shows a while ({@link
     * Shared#leftoverNanos}) after they were written: their owners never came for them. Forgets the
     * results a listing no longer shows once it is surely younger than them (their owners took
     * them).
     */
    private List<String> leftOver(List<String> listed) {
        if (results.isEmpty()) {
            return List.of();
        }
        Set<String> shown = new HashSet<>(listed);
        long now = shared.ticker().nanos();
        long after = shared.leftoverNanos();
        List<String> old = new ArrayList<>();
        results.forEach(
                (result, at) -> {
                    if (!shown.contains(result)) {
                        if (now - at > after / 2) {
                            results.remove(result, at);
                        }
                    } else if (now - at > after && results.remove(result, at)) {
                        old.add(result);
                    }
                });
        return old;
    }

    /** What the read showed of the writer's seat: served (the range, checked), waiting or gone. */
    private Look seat(Seat mine, @Nullable Seen node, List<Reply> replies) {
        Reply seat = replies.get(2);
        if (seat.ok() && seat.stat().getVersion() != 0) {
            throw new StoreCorruptedException(
                    mine.path(),
                    "this store's seat was written behind its back (data version "
                            + seat.stat().getVersion()
                            + "; a seat is only ever deleted)");
        }
        Reply result = replies.get(3);
        if (seat.ok() || !result.ok()) {
            return new Look(node, null, !seat.ok()); // waiting, or gone unserved
        }
        Range served = Seats.range(key, mine, result.data());
        if (node != null && node.state() != null && served.end() > node.state().next()) {
            throw new StoreCorruptedException(
                    mine.result(),
                    "a seat's range ends at "
                            + served.end()
                            + ", past the key's next value "
                            + node.state().next());
        }
        read.add(mine.result());
        othersWrite = true;
        return new Look(node, served, true);
    }

    /** A read of the key's node, checked and remembered; null when the key is unused. */
    private @Nullable Seen seeNode(Deadline deadline, Reply r) {
        if (r.is(Code.NONODE)) {
            RangeHistory.Mark known = mark.mark();
            if (known != null) {
                throw mark.gone(known);
            }
            seen = null;
            return null;
        }
        if (!r.ok()) {
            throw shared.failures().unexpected(deadline, r);
        }
        RangeState state = RangeCodec.decode(key, path, r.data(), r.stat().getVersion());
        see(r.stat(), state);
        Seen node = new Seen(state, r.stat().getVersion(), r.data());
        seen = state == null ? null : node;
        return node;
    }

    /**
     * Writes {@code next} over what was seen ({@code current}; null: no node) in one multi with a
     * check of the key's line (created when absent), so that it cannot land past a seat it did not
     * know of. With {@code serve}, the values after {@code next} go to the seats waiting as this
     * store last read the line, oldest first, as far as they fit and at most {@value #MAX_SERVED}
     * ({@link Seats#serve}), and {@code mine}, the writer's own seat, is deleted in the same multi.
     */
    WriteOutcome write(
            Deadline deadline,
            @Nullable Seen current,
            RangeState next,
            Serving serving,
            @Nullable Seat mine,
            Runnable beforeCopy) {
        boolean guarded = current != null && !lineRefused;
        List<NodeChange> changes = new ArrayList<>();
        List<Seat> served = new ArrayList<>();
        long end = guarded ? guard(next.next(), serving, mine, changes, served) : next.next();
        RangeState written = new RangeState(end, next.sealed());
        byte[] data = RangeCodec.encode(written);
        changes.add(
                0,
                current == null
                        ? NodeChange.create(path, data)
                        : NodeChange.replace(path, current.version(), current.data(), data));
        WriteOutcome outcome =
                shared.conditionalWrite()
                        .sendUntilAnswered(deadline, location(), changes, beforeCopy);
        switch (outcome.kind()) {
            case LANDED -> {
                // the key's own change is a setData or a create answered with its Stat
                Stat stat = Objects.requireNonNull(outcome.stat(0), "the key's Stat");
                landed(stat, written, data, guarded, changes, served);
            }
            case LOST_RACE -> lost(outcome.failedOn());
            case NOT_ALLOWED -> {
                seen = null;
                notAllowed(Objects.requireNonNull(outcome.failedOn()));
            }
            // the first key under a new prefix, or the line's or the claims' root
            case PARENT_MISSING -> {
                seen = null;
                shared.pathCreator().ensure(deadline, outcome.missingParent());
            }
            // our write may or may not have landed (resent until answered, something else came
            // first): read again; its range is a gap
            case UNKNOWN, NODE_GONE -> seen = null;
        }
        return outcome;
    }

    /** Whom a write serves besides its writer. */
    enum Serving {
        /** The seats waiting as this store last read the line, oldest first. */
        SEATS_WAITING,
        /** Nobody: advance and seal write for themselves alone. */
        NOBODY
    }

    /**
     * The changes that guard a write with the key's line: the line's check (or create), the
     * writer's own seat and the results read deleted, and the seats served after {@code end};
     * returns the key's next value after them.
     */
    private long guard(
            long end,
            Serving serving,
            @Nullable Seat mine,
            List<NodeChange> changes,
            List<Seat> served) {
        LineSeen line = lineSeen;
        changes.add(
                line.exists()
                        ? NodeChange.check(this.line, line.version())
                        : NodeChange.create(this.line, new byte[0]));
        if (mine != null) {
            changes.add(NodeChange.delete(mine.path(), 0));
        }
        read.forEach(r -> changes.add(NodeChange.delete(r, -1)));
        long next = end;
        for (Seat seat : serving == Serving.SEATS_WAITING ? line.waiting() : List.<Seat>of()) {
            if (served.size() < MAX_SERVED && seat.size() <= Long.MAX_VALUE - next) {
                changes.addAll(Seats.serve(seat, next));
                next += seat.size();
                served.add(seat);
            }
        }
        return next;
    }

    /** Judges and remembers a state of the key's node (null: an unused parent placeholder). */
    private void see(Stat stat, @Nullable RangeState state) {
        mark.seen(
                null,
                stat.getCzxid(),
                stat.getMzxid(),
                state == null ? 0 : state.next(),
                state != null && state.sealed());
    }

    private void landed(
            Stat stat,
            RangeState written,
            byte[] data,
            boolean guarded,
            List<NodeChange> changes,
            List<Seat> served) {
        see(stat, written);
        seen = new Seen(written, stat.getVersion(), data);
        if (!guarded) {
            return;
        }
        changes.stream()
                .filter(c -> c.kind() == NodeChange.Kind.DELETE)
                .forEach(c -> read.remove(c.path()));
        LineSeen line = lineSeen;
        List<Seat> left = new ArrayList<>(line.waiting());
        left.removeAll(served);
        lineSeen = new LineSeen(true, line.exists() ? line.version() : 0, left);
        long now = shared.ticker().nanos();
        served.forEach(s -> results.put(s.result(), now));
        if (!served.isEmpty()) {
            shared.counts().add(RangeCounts.Count.SERVING_WRITES);
            shared.counts().add(RangeCounts.Count.SEATS_SERVED, served.size());
        }
    }

    private void lost(@Nullable String on) {
        switch (LostOn.of(on, line)) {
            case SEAT -> {
                // a seat went (or its result is there), or a result read is gone already: the key
                // and the line stand as read
                String gone = Objects.requireNonNull(on);
                read.remove(gone);
                LineSeen line = lineSeen;
                lineSeen =
                        new LineSeen(
                                true,
                                line.version(),
                                line.waiting().stream()
                                        .filter(s -> !gone.equals(s.path()))
                                        .filter(s -> !gone.equals(s.result()))
                                        .toList());
            }
            case LINE -> {
                // a failed check of the line leaves the key as read
            }
            case KEY -> {
                seen = null; // the key moved
                othersWrite = true;
            }
        }
    }

    /**
     * Posts a seat asking for {@code size} ({@link Seats#post}), deleting the results this store
     * read; null when the line's ACL refuses this store, which then writes by compare-and-set
     * alone.
     */
    @Nullable Seat post(Deadline deadline, long size) {
        List<String> consumed = List.copyOf(read);
        Seat posted =
                shared.seats()
                        .post(deadline, line, mark.highestNext(), size, new ArrayList<>(consumed));
        if (posted == null) {
            notAllowed(line);
            return null;
        }
        consumed.forEach(read::remove); // deleted by the post, or found gone
        shared.counts().add(RangeCounts.Count.POSTS);
        return posted;
    }

    private void notAllowed(String node) {
        if (!lineRefused) {
            lineRefused = true;
            shared.observations().lineNotWritable(key, node);
        }
    }
}
