package io.cosid.store.zookeeper.internal;

import static io.cosid.store.StoreArguments.requireAtLeast;
import static io.cosid.store.StoreArguments.requireKey;
import static io.cosid.store.StoreArguments.requireSize;

import io.cosid.store.Range;
import io.cosid.store.RangeSealedException;
import io.cosid.store.RangeState;
import io.cosid.store.RangeStore;
import io.cosid.store.StoreCorruptedException;
import io.cosid.store.StoreException;
import io.cosid.store.StoreObserver.Operation;
import io.cosid.store.spi.OperationNames;
import io.cosid.store.zookeeper.internal.RangeKeyState.LineSeen;
import io.cosid.store.zookeeper.internal.RangeKeyState.Seen;
import io.cosid.store.zookeeper.internal.Seats.Seat;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

/**
 * RangeStore on {@code {root}/range/{key}} (docs/contract.md, "RangeStore").
 *
 * <p>Each key's node is compare-and-set on the data version this store last saw, with a check of
 * the key's line ({@link Seats}) in the same multi: an acquire with no writer in between is one
 * round trip and one request. A write whose outcome is unknown (the connection broke after it was
 * sent) is never repeated: the node is re-read and the next range starts after whatever is stored,
 * so the unknown range is at worst a gap. The node's czxid is remembered for good; a node deleted
 * or recreated behind the store's back is refused.
 *
 * <p>Concurrent acquires on one key inside this store are coalesced into one write ({@link
 * AcquireCoalescer}); across processes, every range write also serves the writers waiting in the
 * key's line, so the write that lands serves them all ({@link RangeWrite}).
 */
@Singleton
final class ZooKeeperRangeStore implements RangeStore {

    private static final RangeState FRESH = new RangeState(0, false);

    /**
     * The shortest time a result waits for its owner before its writer deletes it; at least four of
     * this store's timeouts. An owner that comes later finds its range gone, a gap.
     */
    private static final long MIN_LEFTOVER_NANOS = TimeUnit.SECONDS.toNanos(2);

    /** The most seats one write serves, so that a multi stays small. */
    static final int MAX_SERVED = 64;

    private final Reads reads;
    private final ConditionalWrite conditionalWrite;
    private final PathCreator pathCreator;
    private final Failures failures;
    private final NodePaths paths;
    private final StoreLifecycle lifecycle;
    private final ParentAcls parentAcls;
    private final Seats seats;
    private final Observations observations;
    private final RangeWaste waste;
    private final WriteLatency latency = new WriteLatency();
    private final RangeCounts counts = new RangeCounts();
    private final Map<String, RangeKeyState> keys = new ConcurrentHashMap<>();

    @Inject
    ZooKeeperRangeStore(
            Reads reads,
            ConditionalWrite conditionalWrite,
            PathCreator pathCreator,
            Failures failures,
            NodePaths paths,
            StoreLifecycle lifecycle,
            ParentAcls parentAcls,
            Seats seats,
            Observations observations,
            RangeWaste waste) {
        this.reads = reads;
        this.conditionalWrite = conditionalWrite;
        this.pathCreator = pathCreator;
        this.failures = failures;
        this.paths = paths;
        this.lifecycle = lifecycle;
        this.parentAcls = parentAcls;
        this.seats = seats;
        this.observations = observations;
        this.waste = waste;
    }

    private RangeKeyState key(String key) {
        return keys.computeIfAbsent(
                key,
                k ->
                        new RangeKeyState(
                                k,
                                paths.range(k),
                                paths.line(k),
                                (demand, d) ->
                                        new RangeWrite(this, seats, keys.get(k), demand, d).run(),
                                waste::givenUp));
    }

    @Override
    public Range acquire(String key, long size) {
        requireKey(key);
        requireSize(size);
        Deadline deadline =
                lifecycle.start(Operation.RANGE_ACQUIRE, OperationNames.rangeAcquire(key));
        parentAcls.checkRangeKey(deadline, key);
        return key(key).coalescer().acquire(size, deadline);
    }

    @Override
    public Optional<RangeState> peek(String key) {
        requireKey(key);
        Deadline deadline = lifecycle.start(Operation.RANGE_PEEK, OperationNames.rangePeek(key));
        return Optional.ofNullable(read(deadline, key(key), null).node()).map(Seen::state);
    }

    @Override
    public long advance(String key, long atLeast) {
        requireKey(key);
        requireAtLeast(atLeast);
        return change(
                key,
                Operation.RANGE_ADVANCE,
                OperationNames.rangeAdvance(key),
                now -> {
                    if (now.sealed()) {
                        throw new RangeSealedException(key, now.next());
                    }
                    return atLeast <= now.next() ? null : new RangeState(atLeast, false);
                });
    }

    @Override
    public long seal(String key) {
        requireKey(key);
        return change(
                key,
                Operation.RANGE_SEAL,
                OperationNames.rangeSeal(key),
                now -> now.sealed() ? null : new RangeState(now.next(), true));
    }

    /**
     * Reads the key and writes what {@code change} makes of its state (null: nothing to write),
     * until a write lands; the key's next value after it. Seats are not served: an advance or a
     * seal fails the writes in flight, which read and serve them.
     */
    private long change(
            String key, Operation op, String name, UnaryOperator<@Nullable RangeState> change) {
        Deadline deadline = lifecycle.start(op, name);
        parentAcls.checkRangeKey(deadline, key);
        RangeKeyState state = key(key);
        while (deadline.hasTimeLeft()) {
            Seen current = read(deadline, state, null).node();
            RangeState now = stateOf(current);
            RangeState next = change.apply(now);
            if (next == null) {
                return now.next();
            }
            if (write(deadline, state, current, next, false, null, () -> {}).landed()) {
                return next.next();
            }
        }
        throw deadline.expired(null);
    }

    @Override
    public SortedMap<String, RangeState> list() {
        Deadline deadline = lifecycle.start(Operation.RANGE_LIST, OperationNames.rangeList());
        SortedMap<String, RangeState> all = new TreeMap<>();
        String prefix = paths.rangeRoot() + "/";
        reads.tree(deadline, paths.rangeRoot())
                .forEach(
                        (path, r) -> {
                            String key = path.substring(prefix.length());
                            RangeState state =
                                    RangeCodec.decode(key, path, r.data(), r.stat().getVersion());
                            if (state != null) {
                                all.put(key, state);
                            }
                        });
        return Collections.unmodifiableSortedMap(all);
    }

    /**
     * What a read of a key showed: its node (null: unused), and for a writer waiting in the key's
     * line the range its seat was served with (null: none yet) and whether its seat is gone.
     */
    record Look(@Nullable Seen node, @Nullable Range served, boolean seatGone) {}

    /**
     * The reads of a key, its line and the writer's seat, in one read-only multi: the listing
     * before the seat's result, so that a seat missing from it without a result was never served,
     * and the key's node last, so that a result's range ends at or below its next value.
     */
    private static List<Op> lookOps(RangeKeyState key, @Nullable Seat mine) {
        List<Op> ops = new ArrayList<>(5);
        ops.add(Op.getData(key.line()));
        ops.add(Op.getChildren(key.line()));
        if (mine != null) {
            ops.add(Op.getData(mine.path()));
            ops.add(Op.getData(mine.result()));
        }
        ops.add(Op.getData(key.path()));
        return ops;
    }

    /** Reads the key, its line and the writer's seat ({@link #lookOps}). */
    Look read(Deadline deadline, RangeKeyState key, @Nullable Seat mine) {
        List<Op> ops = lookOps(key, mine);
        Reply r = reads.one(deadline, h -> Requests.multi(h, ops));
        if (r.results() == null || r.results().size() != ops.size()) {
            throw failures.unexpected(deadline, r);
        }
        List<Reply> replies = new ArrayList<>(ops.size());
        for (int i = 0; i < ops.size(); i++) {
            replies.add(Reply.ofRead(ops.get(i).getPath(), r.results().get(i)));
        }
        return look(deadline, key, mine, replies);
    }

    /**
     * What the replies to {@link #lookOps} show, remembered: the key's node checked, the line's
     * version and waiting seats, and the writer's own seat served, waiting or gone. A result its
     * owner never came for, written by this store long ago, is deleted.
     */
    private Look look(
            Deadline deadline, RangeKeyState key, @Nullable Seat mine, List<Reply> replies) {
        Reply lineNode = replies.get(0);
        Reply children = replies.get(1);
        if (lineNode.is(Code.NOAUTH) || children.is(Code.NOAUTH)) {
            notAllowed(key, key.line());
        }
        List<String> listed = children.ok() ? children.children() : List.of();
        key.seeLine(
                lineNode.ok()
                        ? new LineSeen(
                                true,
                                lineNode.stat().getVersion(),
                                Seats.waiting(key.line(), listed).stream()
                                        .filter(s -> mine == null || !s.name().equals(mine.name()))
                                        .toList())
                        : LineSeen.ABSENT);
        long leftover = Math.max(MIN_LEFTOVER_NANOS, 4 * lifecycle.timeout().toNanos());
        key.leftOver(Seats.results(key.line(), listed), leftover).forEach(seats::delete);
        Seen node = seen(deadline, key, replies.get(replies.size() - 1));
        if (mine == null) {
            return new Look(node, null, false);
        }
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
        Range served = Seats.range(key.key(), mine, result.data());
        if (node != null && node.state() != null && served.end() > node.state().next()) {
            throw new StoreCorruptedException(
                    mine.result(),
                    "a seat's range ends at "
                            + served.end()
                            + ", past the key's next value "
                            + node.state().next());
        }
        key.readResult(mine.result());
        return new Look(node, served, true);
    }

    /** A read of the key's node, checked and remembered; null when the key is unused. */
    private Seen seen(Deadline deadline, RangeKeyState key, Reply r) {
        if (r.is(Code.NONODE)) {
            if (key.known()) {
                throw new StoreCorruptedException(
                        key.location(),
                        "the node this store used was deleted behind"
                                + " its back; restarting it at 0 could reissue values");
            }
            key.forget();
            return null;
        }
        if (!r.ok()) {
            throw failures.unexpected(deadline, r);
        }
        RangeState state =
                RangeCodec.decode(key.key(), key.path(), r.data(), r.stat().getVersion());
        key.check(r.stat(), state);
        Seen seen = new Seen(state, r.stat().getVersion(), r.data());
        key.see(seen);
        return seen;
    }

    static RangeState stateOf(@Nullable Seen seen) {
        return seen == null || seen.state() == null ? FRESH : seen.state();
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
            RangeKeyState key,
            @Nullable Seen current,
            RangeState next,
            boolean serve,
            @Nullable Seat mine,
            Runnable beforeCopy) {
        LineSeen line = key.lineSeen();
        boolean guarded = current != null && !key.plain();
        List<NodeChange> changes = new ArrayList<>();
        List<Seat> served = new ArrayList<>();
        long end = next.next();
        if (guarded) {
            changes.add(
                    line.exists()
                            ? NodeChange.check(key.line(), line.version())
                            : NodeChange.create(key.line(), new byte[0]));
            if (mine != null) {
                changes.add(NodeChange.delete(mine.path(), 0));
            }
            key.resultsToDelete().forEach(r -> changes.add(NodeChange.delete(r, -1)));
            for (Seat seat : serve ? line.waiting() : List.<Seat>of()) {
                if (served.size() < MAX_SERVED && seat.size() <= Long.MAX_VALUE - end) {
                    changes.addAll(Seats.serve(seat, end));
                    end += seat.size();
                    served.add(seat);
                }
            }
        }
        RangeState written = new RangeState(end, next.sealed());
        byte[] data = RangeCodec.encode(written);
        changes.add(
                0,
                current == null
                        ? NodeChange.create(key.path(), data)
                        : NodeChange.replace(key.path(), current.version(), current.data(), data));
        WriteOutcome outcome =
                conditionalWrite.sendUntilAnswered(
                        deadline, key.location(), List.of(), changes, beforeCopy);
        switch (outcome.kind()) {
            case LANDED -> {
                Stat stat = outcome.stat(0);
                key.check(stat, written);
                key.see(new Seen(written, stat.getVersion(), data));
                if (guarded) {
                    key.resultsDeleted(
                            changes.stream()
                                    .filter(c -> c.kind() == NodeChange.Kind.DELETE)
                                    .map(NodeChange::path)
                                    .toList());
                    List<Seat> left = new ArrayList<>(line.waiting());
                    left.removeAll(served);
                    key.seeLine(new LineSeen(true, line.exists() ? line.version() : 0, left));
                    served.forEach(s -> key.served(s.result()));
                    if (!served.isEmpty()) {
                        counts.add(RangeCounts.Count.SERVING_WRITES);
                        counts.add(RangeCounts.Count.SEATS_SERVED, served.size());
                    }
                }
            }
            case LOST_RACE -> {
                String on = outcome.failedOn();
                if (on != null && on.startsWith(key.line() + "/")) {
                    // a seat went (or its result is there), or a result read is gone already: the
                    // key and the line stand as read
                    key.resultsDeleted(List.of(on));
                    key.seeLine(
                            new LineSeen(
                                    true,
                                    line.version(),
                                    line.waiting().stream()
                                            .filter(s -> !on.equals(s.path()))
                                            .filter(s -> !on.equals(s.result()))
                                            .toList()));
                } else if (!key.line().equals(on)) {
                    key.forget(); // the key moved; a failed check of the line leaves it as read
                }
            }
            case NOT_ALLOWED -> {
                key.forget();
                notAllowed(key, outcome.failedOn());
            }
            // the first key under a new prefix, or the line's or the claims' root
            case PARENT_MISSING -> {
                key.forget();
                pathCreator.ensure(deadline, outcome.missingParent());
            }
            // our write may or may not have landed (resent until answered, something else came
            // first): read again; its range is a gap
            case UNKNOWN, NODE_GONE -> key.forget();
        }
        return outcome;
    }

    void notAllowed(RangeKeyState key, String node) {
        if (!key.plain()) {
            key.plainFromNowOn();
            observations.lineNotWritable(key.key(), node);
        }
    }

    /**
     * Sends a range write of {@code size} values; if its outcome is unknown (the reply lost, or the
     * time run out around the send) its values are counted as possibly skipped ({@link
     * RangeWaste}).
     */
    WriteOutcome counted(long size, Supplier<WriteOutcome> send) {
        waste.sending(size);
        try {
            WriteOutcome outcome = send.get();
            if (outcome.kind() == WriteOutcome.Kind.UNKNOWN) {
                waste.unknownOutcome(size);
            }
            return outcome;
        } catch (StoreCorruptedException e) {
            throw e; // refused, nothing sent
        } catch (StoreException e) {
            waste.unknownOutcome(size);
            throw e;
        } finally {
            waste.answered(size);
        }
    }

    /** What this store's range acquires did on contended keys. */
    RangeCounts counts() {
        return counts;
    }

    /** The round trip of this store's landed range writes. */
    WriteLatency latency() {
        return latency;
    }

    /** What this store's range writes may have skipped, by cause. */
    RangeWaste waste() {
        return waste;
    }
}
