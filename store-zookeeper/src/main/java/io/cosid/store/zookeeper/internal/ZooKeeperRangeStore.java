package io.cosid.store.zookeeper.internal;

import static io.cosid.store.StoreArguments.requireAtLeast;
import static io.cosid.store.StoreArguments.requireKey;
import static io.cosid.store.StoreArguments.requireSize;

import io.cosid.store.Range;
import io.cosid.store.RangeExhaustedException;
import io.cosid.store.RangeSealedException;
import io.cosid.store.RangeState;
import io.cosid.store.RangeStore;
import io.cosid.store.StoreCorruptedException;
import io.cosid.store.spi.OperationNames;
import io.cosid.store.zookeeper.internal.RangeKeyState.LineSeen;
import io.cosid.store.zookeeper.internal.RangeKeyState.Seen;
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
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.data.Stat;

/**
 * RangeStore on {@code {root}/range/{key}} (docs/contract.md, "RangeStore").
 *
 * <p>Each key's node is compare-and-set on the data version this store last saw, together with a
 * check of the key's writer line, in one multi: an acquire with no writer in between is one round
 * trip. A lost race means another writer came first: re-read and try again within the budget. A
 * write whose outcome is unknown (the connection broke after it was sent) is never repeated: the
 * node is re-read and the next range starts after whatever is stored, so the unknown range is at
 * worst a gap. The node's czxid is remembered for good; a node deleted or recreated behind the
 * store's back is refused.
 *
 * <p>Concurrent acquires on one key inside this store are coalesced into one write ({@link
 * AcquireCoalescer}). Against other processes, a lost race on a hot key is answered by a read
 * pipelined behind the failed write (so a retry costs one round trip, not two), and a writer that
 * lost twice joins the key's {@link WriterLine}, which serves writers in order so that none starves
 * however the machine schedules them (docs/contract.md, "Liveness under contention").
 */
@Singleton
final class ZooKeeperRangeStore implements RangeStore {

    private static final RangeState FRESH = new RangeState(0, false);

    private final Reads reads;
    private final ConditionalWrite conditionalWrite;
    private final PathCreator pathCreator;
    private final Failures failures;
    private final NodePaths paths;
    private final StoreLifecycle lifecycle;
    private final ParentAcls parentAcls;

    /** Losses after which a writer joins the key's line. */
    private static final int JOIN_AFTER_LOSSES = 2;

    private static final long MIN_STALL_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

    /** A version no node has: the key's node was absent. */
    private static final int NO_NODE = Integer.MIN_VALUE;

    private final WriteLatency latency = new WriteLatency();
    private final WriterLine line;
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
            WriterLine line) {
        this.line = line;
        this.reads = reads;
        this.conditionalWrite = conditionalWrite;
        this.pathCreator = pathCreator;
        this.failures = failures;
        this.paths = paths;
        this.lifecycle = lifecycle;
        this.parentAcls = parentAcls;
    }

    private RangeKeyState key(String key) {
        return keys.computeIfAbsent(
                key,
                k ->
                        new RangeKeyState(
                                k,
                                paths.range(k),
                                paths.line(k),
                                (total, d) -> writeRange(keys.get(k), total, d)));
    }

    @Override
    public Range acquire(String key, long size) {
        requireKey(key);
        requireSize(size);
        Deadline deadline = lifecycle.start(OperationNames.rangeAcquire(key));
        parentAcls.checkRangeKey(deadline, key);
        return key(key).coalescer().acquire(size, deadline);
    }

    /**
     * One range of {@code size}: compare-and-set until it lands. A write carries a check of the
     * key's line ({@link WriterLine}), so it cannot land past writers already waiting there; a
     * writer that lost twice, or finds writers waiting, joins the line itself.
     */
    private Range writeRange(RangeKeyState key, long size, Deadline deadline) {
        int lost = 0;
        while (deadline.hasTimeLeft()) {
            Seen current = key.seen();
            if (current == null) {
                current = read(deadline, key);
            }
            if (lost >= JOIN_AFTER_LOSSES || key.lineSeen().writers() > 0) {
                return writeInLine(key, size, deadline);
            }
            RangeState next = after(key, stateOf(current), size);
            long started = System.nanoTime();
            WriteOutcome outcome = write(deadline, key, current, next, key.hot(), true);
            switch (outcome.kind()) {
                case LANDED -> {
                    latency.landed(System.nanoTime() - started);
                    return new Range(key.key(), next.next() - size, next.next());
                }
                case LOST_RACE -> {
                    // lost to another writer; a failed check of the line instead means writers
                    // joined it, which the read behind the write shows
                    if (key.path().equals(outcome.failedOn())) {
                        key.lost();
                        lost++;
                    }
                }
                case UNKNOWN, PARENT_MISSING, NODE_GONE -> {
                    // read again before the next try; an unknown write is never resent, so its
                    // range is a gap
                }
            }
        }
        throw deadline.expired(null);
    }

    /**
     * In the key's line: waits to be first, then writes. Leaves the line whatever happens; a writer
     * ahead that neither writes nor leaves while the key stands still is removed.
     */
    private Range writeInLine(RangeKeyState key, long size, Deadline deadline) {
        WriterLine.Place place = line.join(deadline, key.line());
        try {
            boolean waitedOut = false;
            int lastVersion = NO_NODE;
            String lastHead = null;
            while (deadline.hasTimeLeft()) {
                List<Reply> r =
                        reads.all(
                                deadline,
                                h ->
                                        List.of(
                                                Requests.getChildren(h, key.line()),
                                                Requests.getData(h, key.path())));
                key.seeLine(LineSeen.of(r.get(0)));
                Seen current = seen(deadline, key, r.get(1));
                WriterLine.Order order = WriterLine.order(r.get(0));
                if (!order.holds(place)) {
                    // removed as stalled while this writer was paused: back of the line
                    place = line.join(deadline, key.line());
                    continue;
                }
                if (order.first(place)) {
                    RangeState next = after(key, stateOf(current), size);
                    long started = System.nanoTime();
                    if (write(deadline, key, current, next, false, false).landed()) {
                        latency.landed(System.nanoTime() - started);
                        return new Range(key.key(), next.next() - size, next.next());
                    }
                    continue; // a writer that had not seen the line yet came first
                }
                if (waitedOut
                        && versionOf(current) == lastVersion
                        && order.head().equals(lastHead)) {
                    line.remove(key.line() + "/" + order.head());
                }
                lastVersion = versionOf(current);
                lastHead = order.head();
                waitedOut =
                        !line.awaitGone(
                                deadline, key.line() + "/" + order.ahead(place), stallNanos());
            }
            throw deadline.expired(null);
        } finally {
            line.remove(place.path());
        }
    }

    /**
     * How long the key may stand still while writers wait before the first of them counts as
     * stalled: many write round trips, and never under half a second, since a scheduler that keeps
     * a live writer off the CPU for a while must not cost it its place.
     */
    private long stallNanos() {
        return Math.max(MIN_STALL_NANOS, 32 * latency.writeNanos());
    }

    /** The state after a range of {@code size} from {@code state}, or why there is none. */
    private static RangeState after(RangeKeyState key, RangeState state, long size) {
        if (state.sealed()) {
            throw new RangeSealedException(key.key(), state.next());
        }
        if (size > Long.MAX_VALUE - state.next()) {
            throw new RangeExhaustedException(key.key(), state.next(), size);
        }
        return new RangeState(state.next() + size, false);
    }

    private static int versionOf(Seen seen) {
        return seen == null ? NO_NODE : seen.version();
    }

    @Override
    public Optional<RangeState> peek(String key) {
        requireKey(key);
        Deadline deadline = lifecycle.start(OperationNames.rangePeek(key));
        return Optional.ofNullable(read(deadline, key(key))).map(Seen::state);
    }

    @Override
    public long advance(String key, long atLeast) {
        requireKey(key);
        requireAtLeast(atLeast);
        Deadline deadline = lifecycle.start(OperationNames.rangeAdvance(key));
        parentAcls.checkRangeKey(deadline, key);
        RangeKeyState state = key(key);
        while (deadline.hasTimeLeft()) {
            Seen current = read(deadline, state);
            RangeState now = stateOf(current);
            if (now.sealed()) {
                throw new RangeSealedException(key, now.next());
            }
            if (atLeast <= now.next()) {
                return now.next();
            }
            if (write(deadline, state, current, new RangeState(atLeast, false), false, false)
                    .landed()) {
                return atLeast;
            }
        }
        throw deadline.expired(null);
    }

    @Override
    public long seal(String key) {
        requireKey(key);
        Deadline deadline = lifecycle.start(OperationNames.rangeSeal(key));
        parentAcls.checkRangeKey(deadline, key);
        RangeKeyState state = key(key);
        while (deadline.hasTimeLeft()) {
            Seen current = read(deadline, state);
            RangeState now = stateOf(current);
            if (now.sealed()
                    || write(
                                    deadline,
                                    state,
                                    current,
                                    new RangeState(now.next(), true),
                                    false,
                                    false)
                            .landed()) {
                return now.next();
            }
        }
        throw deadline.expired(null);
    }

    @Override
    public SortedMap<String, RangeState> list() {
        Deadline deadline = lifecycle.start(OperationNames.rangeList());
        SortedMap<String, RangeState> all = new TreeMap<>();
        List<String> level = List.of(paths.rangeRoot());
        while (!level.isEmpty()) {
            List<String> parents = level;
            List<Reply> children =
                    reads.all(
                            deadline,
                            h -> parents.stream().map(p -> Requests.getChildren(h, p)).toList());
            List<String> next = new ArrayList<>();
            for (int i = 0; i < parents.size(); i++) {
                Reply r = children.get(i);
                String parent = parents.get(i);
                if (r.ok()) {
                    r.children().forEach(c -> next.add(parent + "/" + c));
                } else if (!r.is(Code.NONODE)) {
                    throw failures.unexpected(deadline, r);
                }
            }
            if (!next.isEmpty()) {
                List<Reply> data =
                        reads.all(
                                deadline,
                                h -> next.stream().map(p -> Requests.getData(h, p)).toList());
                for (int i = 0; i < next.size(); i++) {
                    Reply r = data.get(i);
                    String key = next.get(i).substring(paths.rangeRoot().length() + 1);
                    if (r.ok()) {
                        RangeState state =
                                RangeCodec.decode(
                                        key, next.get(i), r.data(), r.stat().getVersion());
                        if (state != null) {
                            all.put(key, state);
                        }
                    }
                }
            }
            level = next;
        }
        return Collections.unmodifiableSortedMap(all);
    }

    /**
     * Reads the node (and, in the same round trip, the key's line), checks its identity, remembers
     * it; null when the key is unused.
     */
    private Seen read(Deadline deadline, RangeKeyState key) {
        List<Reply> r =
                reads.all(
                        deadline,
                        h ->
                                List.of(
                                        Requests.getData(h, key.path()),
                                        Requests.exists(h, key.line(), null)));
        key.seeLine(LineSeen.of(r.get(1)));
        return seen(deadline, key, r.get(0));
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
        return remember(key, r);
    }

    /** Checks a read node's identity and data and remembers it as the state to write over next. */
    private Seen remember(RangeKeyState key, Reply r) {
        RangeState state =
                RangeCodec.decode(key.key(), key.path(), r.data(), r.stat().getVersion());
        key.check(r.stat(), state);
        Seen seen = new Seen(state, r.stat().getVersion(), r.data());
        key.see(seen);
        return seen;
    }

    private static RangeState stateOf(Seen seen) {
        return seen == null || seen.state() == null ? FRESH : seen.state();
    }

    /**
     * Writes {@code next} over what was seen (null: no node). With {@code readBehind}, a lost race
     * already knows the winner's state: the retry costs no extra round trip. A {@code guarded}
     * replace also checks that the key's line is as last seen (creating it when it was absent).
     * After any outcome but a landed write, the next try reads first.
     */
    private WriteOutcome write(
            Deadline deadline,
            RangeKeyState key,
            Seen current,
            RangeState next,
            boolean readBehind,
            boolean guarded) {
        byte[] data = RangeCodec.encode(next);
        List<NodeChange> changes = new ArrayList<>(2);
        changes.add(
                current == null
                        ? NodeChange.create(key.path(), data)
                        : NodeChange.replace(key.path(), current.version(), current.data(), data));
        LineSeen lineSeen = key.lineSeen();
        if (guarded && current != null) {
            changes.add(
                    lineSeen.exists()
                            ? NodeChange.check(key.line(), lineSeen.version())
                            : NodeChange.create(key.line(), new byte[0]));
        }
        WriteOutcome outcome =
                readBehind
                        ? conditionalWrite.sendWithReadBehind(deadline, key.location(), changes)
                        : conditionalWrite.send(
                                deadline, key.location(), changes.toArray(NodeChange[]::new));
        key.forget();
        switch (outcome.kind()) {
            case LANDED -> {
                Stat stat = outcome.stat(0);
                key.check(stat, next);
                key.see(new Seen(next, stat.getVersion(), data));
                if (changes.size() > 1 && !lineSeen.exists()) {
                    key.seeLine(new LineSeen(true, 0, 0));
                }
            }
            case LOST_RACE -> {
                // the reads behind the failed write (same session, so answered after it) show what
                // won
                if (outcome.behind(0) != null) {
                    remember(key, outcome.behind(0));
                }
                if (changes.size() > 1 && readBehind) {
                    key.seeLine(LineSeen.of(outcome.behind(1)));
                } else if (changes.size() > 1) {
                    key.seeLine(LineSeen.ABSENT); // read it with the key before the next try
                }
            }
            // the first key under a new prefix, the line's root, or the claim root at the wrap; a
            // node that is itself gone is not created again: the read before the next try reports
            // it
            case PARENT_MISSING -> pathCreator.ensure(deadline, outcome.missingParent());
            case UNKNOWN, NODE_GONE -> {
                // our write may or may not have landed: read again, never resend
            }
        }
        return outcome;
    }
}
