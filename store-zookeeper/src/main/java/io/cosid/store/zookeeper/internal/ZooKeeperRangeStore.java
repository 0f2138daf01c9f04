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
import io.cosid.store.StoreException;
import io.cosid.store.StoreObserver.Operation;
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
import java.util.function.Supplier;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

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

    /**
     * Losses in one acquire after which a writer that acquires the key back to back joins the key's
     * line.
     */
    private static final int JOIN_AFTER_LOSSES = 2;

    /**
     * Writes by others, counted from this writer's first read in one acquire, after which any
     * writer joins the key's line. A writer that comes back only now and then meets others in a
     * burst, which compare-and-set settles in fewer requests than the line's join, reads and leave:
     * a burst of {@value} writers that each take one range makes at most one write fewer than this.
     * A writer that meets one nearer the server landing write after write joins after its first
     * lost race (each of its round trips the nearer writer fills with writes), and one that loses
     * without end joins after at most {@value} losses past its first read.
     */
    private static final int JOIN_ANYWAY_AFTER_WRITES = 8;

    private static final long MIN_STALL_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

    /** The shortest time a seat is kept for a writer that may come back. */
    private static final long MIN_LINGER_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

    /** A version no node has: the key's node was absent. */
    private static final int NO_NODE = Integer.MIN_VALUE;

    private final WriteLatency latency = new WriteLatency();
    private final WriterLine line;
    private final RangeWaste waste;
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
            WriterLine line,
            RangeWaste waste) {
        this.line = line;
        this.waste = waste;
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
                                (demand, d) -> writeRange(keys.get(k), demand, d),
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

    /**
     * One range for the callers of {@code demand}: compare-and-set until it lands, each try as
     * large as the demand is when it is sent. A write carries a check of the key's line ({@link
     * WriterLine}), so it cannot land past writers already waiting there. A writer that finds
     * writers waiting joins the line itself, and so does one that lost twice while it acquires the
     * key back to back (its last acquire ended within the time a seat lingers), where contention is
     * sustained and compare-and-set alone would starve the writers further away; one that saw
     * others land {@value #JOIN_ANYWAY_AFTER_WRITES} writes since its first read in this acquire
     * joins anyway. Null when nobody waits any more.
     *
     * <p>The first try writes over the state this store last saw without reading it (one round
     * trip, one request) while that state usually is still the key's, that is while this store is
     * the key's only writer; once another process wrote in between, it reads first (two round trips
     * and two requests, what a failed write and a read would cost in time, with a request less),
     * until a read shows the key as it left it ({@link RangeKeyState#othersWrite}).
     */
    private @Nullable Range writeRange(
            RangeKeyState key, AcquireCoalescer.Demand demand, Deadline deadline) {
        int lost = 0;
        boolean backToBack = System.nanoTime() - key.landedAt() < lingerNanos();
        boolean readNow = false; // whether the state to write over was read during this acquire
        Seen firstRead = null; // the key as this acquire first read it
        while (deadline.hasTimeLeft()) {
            if ((backToBack && lost >= JOIN_AFTER_LOSSES) || key.seated()) {
                long size = demand.settle();
                return size == 0 ? null : writeInLine(key, size, demand, deadline);
            }
            Seen known = key.seen();
            boolean blind = !readNow && known != null && !key.othersWrite();
            Seen over =
                    blind || (readNow && known != null) ? known : readFirst(deadline, key, known);
            readNow = !blind;
            int othersWrote = 0; // writes by others since this acquire's first read
            if (readNow && over != null) {
                if (firstRead == null) {
                    firstRead = over;
                }
                othersWrote = over.version() - firstRead.version();
            }
            long size = demand.settle();
            if (size == 0) {
                return null; // every caller it wrote for gave up: nothing is written
            }
            if (key.lineSeen().writers() > 0 || othersWrote >= JOIN_ANYWAY_AFTER_WRITES) {
                return writeInLine(key, size, demand, deadline);
            }
            RangeState next = after(key, stateOf(over), size);
            long started = System.nanoTime();
            WriteOutcome outcome =
                    counted(
                            size,
                            () ->
                                    write(
                                            deadline,
                                            key,
                                            over,
                                            next,
                                            blind && key.hot(),
                                            true,
                                            () -> demand.settle(size)));
            switch (outcome.kind()) {
                case LANDED -> {
                    latency.landed(System.nanoTime() - started);
                    key.landed();
                    if (blind) {
                        key.othersWrite(false);
                    }
                    return new Range(key.key(), next.next() - size, next.next());
                }
                case LOST_RACE -> {
                    // lost to another writer; a failed check of the line instead means writers
                    // joined it, which the read behind the write (or the next read) shows
                    if (key.path().equals(outcome.failedOn())) {
                        key.lost();
                        lost++;
                        if (blind) {
                            key.othersWrite(true);
                        }
                    }
                    readNow = key.seen() != null; // the read behind it, if it carried one
                }
                case UNKNOWN, PARENT_MISSING, NODE_GONE -> {
                    // read again before the next try; a write still unknown after its copies
                    // (ConditionalWrite.sendUntilAnswered) is not written again: its range is a gap
                    readNow = false;
                }
            }
        }
        throw deadline.expired(null);
    }

    /**
     * Reads the key before a write, and records whether it moved since this store saw it as {@code
     * known} (null: nothing to compare).
     */
    private Seen readFirst(Deadline deadline, RangeKeyState key, @Nullable Seen known) {
        Seen current = read(deadline, key);
        if (known != null) {
            key.othersWrite(current == null || current.version() != known.version());
        }
        return current;
    }

    /**
     * In the key's line: writes this writer's next slot of the epoch's schedule, or opens a new
     * epoch when there is no schedule it is part of ({@link WriterLine}). Keeps its seat for a
     * while after a landed turn; leaves the line on every other way out.
     */
    private @Nullable Range writeInLine(
            RangeKeyState key, long size, AcquireCoalescer.Demand demand, Deadline deadline) {
        RangeKeyState.Lingering mine = key.takeSeat();
        if (mine != null && mine.seat.size() != size) {
            long declared = mine.seat.size();
            if (declared < size && demand.fit(declared) == declared) {
                // keep the place in the line: the seat's turns carry what it declared, and the
                // callers beyond it wait for the next turn; a new size would make every writer of
                // the key read the line and open a new epoch
                size = declared;
            } else {
                leave(mine); // its slots in the schedule are not of this size
                mine = null;
                size = demand.settle();
                if (size == 0) {
                    return null; // every caller it wrote for gave up: nothing is written
                }
            }
        }
        boolean landed = false;
        try {
            int stillAt = NO_NODE;
            int stillFor = -1;
            while (deadline.hasTimeLeft()) {
                if (mine == null) {
                    mine = new RangeKeyState.Lingering(line.join(deadline, key.line(), size));
                }
                if (mine.schedule == null) {
                    Range opened = readOrOpen(deadline, key, mine, size, demand, false);
                    if (opened != null) {
                        landed = true;
                        return opened;
                    }
                    if (mine.seat == null) {
                        mine = null; // gone from the line: join again
                    }
                    continue;
                }
                TurnSchedule plan = mine.schedule;
                int me = plan.indexOf(mine.seat.name());
                TurnSchedule.Slot slot = plan.slot(mine.slot);
                if (me < 0 || slot == null) {
                    mine.forgetEpoch();
                    continue;
                }
                int before = (mine.slot - 1) % plan.size();
                if (before != me) {
                    if (mine.epochEnded == null) {
                        mine.epochEnded = line.watchEpoch(key.line(), mine.epoch);
                    }
                    if (mine.before == null || mine.beforeSlot != mine.slot) {
                        watchBefore(key, mine, plan, mine.slot);
                    }
                    if (stillFor != mine.slot) {
                        // the key's version as this writer last knew it, when it began to wait
                        Seen known = key.seen();
                        stillAt = known == null ? NO_NODE : known.version();
                        stillFor = mine.slot;
                    }
                    WriterLine.Wait waited =
                            WriterLine.await(deadline, mine.before, mine.epochEnded, stallNanos());
                    if (waited == WriterLine.Wait.STILL) {
                        // the seat before has not written for a while: if the key stood still
                        // too, the seat whose slot is due is stalled, and the next epoch leaves it
                        // out; if not, the line moves slowly: wait again
                        int now = versionOfKey(deadline, key);
                        if (now != stillAt) {
                            stillAt = now;
                            continue;
                        }
                    }
                    mine.before = null;
                    if (waited != WriterLine.Wait.MOVED) {
                        Range opened =
                                readOrOpen(
                                        deadline,
                                        key,
                                        mine,
                                        size,
                                        demand,
                                        waited == WriterLine.Wait.STILL);
                        if (opened != null) {
                            landed = true;
                            return opened;
                        }
                        if (mine.seat == null) {
                            mine = null;
                        }
                        continue;
                    }
                }
                Range range = writeSlot(deadline, key, mine, plan, slot, me, size, demand);
                if (range != null) {
                    landed = true;
                    return range;
                }
                if (mine.seat == null) {
                    mine = null;
                }
            }
            throw deadline.expired(null);
        } finally {
            if (mine != null) {
                if (landed) {
                    key.landed();
                    linger(key, mine);
                } else {
                    leave(mine);
                }
            }
        }
    }

    /** The key's node's data version now; a read. */
    private int versionOfKey(Deadline deadline, RangeKeyState key) {
        Reply r = reads.one(deadline, h -> Requests.getData(h, key.path()));
        return r.ok() ? r.stat().getVersion() : NO_NODE;
    }

    /**
     * Lists the line, then reads the key, the line node and every seat in one read-only multi (two
     * round trips); the listing counts only if the line's children did not change in between (same
     * child version), otherwise it lists again. If the line holds a schedule for its current epoch
     * that this writer's seat is part of, takes it (its next slot follows from the key's version)
     * and returns null. Otherwise opens a new epoch: one multi writes this writer's range over the
     * key as read, the new schedule (this writer first, the others in seat order after it, each
     * with its node's version as read) over the line node at the version read, and bumps this
     * writer's seat; with {@code dropDue}, the seat whose slot is due is deleted in the same multi
     * and left out. Returns the range when it lands, null otherwise (the caller reads again; {@code
     * mine.seat} is null when this writer's seat is gone).
     */
    private Range readOrOpen(
            Deadline deadline,
            RangeKeyState key,
            RangeKeyState.Lingering mine,
            long size,
            AcquireCoalescer.Demand demand,
            boolean dropDue) {
        mine.forgetEpoch();
        Reply children = reads.one(deadline, h -> Requests.getChildren(h, key.line()));
        if (children.is(Code.NONODE)) {
            mine.seat = null;
            return null;
        }
        if (!children.ok()) {
            throw failures.unexpected(deadline, children);
        }
        WriterLine.Order order = WriterLine.order(key.line(), children);
        if (!order.holds(mine.seat)) {
            mine.seat = null; // removed as stalled while this writer was paused
            return null;
        }
        List<Op> ops = new ArrayList<>();
        ops.add(Op.getData(key.path()));
        ops.add(Op.getData(key.line()));
        order.seats().forEach(seat -> ops.add(Op.getData(seat.path())));
        Reply r = reads.one(deadline, h -> Requests.multi(h, ops));
        if (r.results() == null || r.results().size() != ops.size()) {
            throw failures.unexpected(deadline, r);
        }
        Reply node = Reply.ofRead(key.path(), r.results().get(0));
        Reply lineNode = Reply.ofRead(key.line(), r.results().get(1));
        Seen current = seen(deadline, key, node);
        if (!lineNode.ok()) {
            mine.seat = null; // the line node is gone, and this writer's seat with it
            return null;
        }
        if (lineNode.stat().getCversion() != children.stat().getCversion()) {
            // a writer joined or left between the listing and this read: a join moves the epoch
            // read here, so an epoch opened from the older listing would leave the joiner out of
            // the schedule while the others chain turns without it, and a writer further from the
            // server never wins the key back to open one (UnequalDistanceTest): list again
            return null;
        }
        int epoch = lineNode.stat().getVersion();
        key.seeLine(new LineSeen(true, epoch, order.seats().size()));
        TurnSchedule plan =
                current == null || current.state() == null
                        ? null
                        : TurnSchedule.decode(
                                "the writer line "
                                        + key.line()
                                        + " of "
                                        + key.location()
                                        + " (it only orders writers: deleting it while no store"
                                        + " writes the key repairs it)",
                                lineNode.data());
        int done = plan == null ? 0 : current.version() - plan.base();
        if (!dropDue
                && plan != null
                && epoch != -1
                && plan.czxid() == node.stat().getCzxid()
                && plan.indexOf(mine.seat.name()) >= 0
                && done >= 1
                && asScheduled(plan, order, r.results(), done)) {
            // the epoch is running: this writer's next slot is its first at or after the one due
            int me = plan.indexOf(mine.seat.name());
            mine.schedule = plan;
            mine.epoch = epoch;
            mine.slot = done + Math.floorMod(me - done, plan.size());
            return null;
        }
        // open the next epoch: this writer first, then the others in seat order after it
        List<String> seats = new ArrayList<>();
        List<Integer> versions = new ArrayList<>();
        String due =
                dropDue && plan != null && done >= 0
                        ? plan.seats().get(Math.floorMod(done, plan.size()))
                        : null;
        int at = order.index(mine.seat);
        for (int i = 0; i < order.seats().size(); i++) {
            int j = (at + i) % order.seats().size();
            WriterLine.Seat seat = order.seats().get(j);
            Reply seatNode = Reply.ofRead(seat.path(), r.results().get(2 + j));
            if (seat.size() <= 0 || !seatNode.ok() || (seat.name().equals(due) && i > 0)) {
                continue; // declares no size, went away, or is left out as stalled
            }
            seats.add(seat.name());
            versions.add(seatNode.stat().getVersion());
        }
        if (seats.isEmpty() || !seats.get(0).equals(mine.seat.name())) {
            mine.seat = null; // this writer's seat went away meanwhile
            return null;
        }
        RangeState after = after(key, stateOf(current), size);
        byte[] data = RangeCodec.encode(after);
        // a key with no state yet (its node absent, or an unused parent) gets its first value
        // without a schedule: the next turn reads again
        TurnSchedule next =
                current == null || current.state() == null
                        ? null
                        : new TurnSchedule(
                                current.version(),
                                current.state().next(),
                                node.stat().getCzxid(),
                                List.copyOf(seats),
                                seats.stream().mapToLong(WriterLine::declaredSize).toArray(),
                                versions.stream().mapToInt(Integer::intValue).toArray());
        List<NodeChange> changes = new ArrayList<>();
        changes.add(
                current == null
                        ? NodeChange.create(key.path(), data)
                        : NodeChange.replace(key.path(), current.version(), current.data(), data));
        changes.add(
                NodeChange.replace(
                        key.line(),
                        epoch,
                        lineNode.data(),
                        next == null ? new byte[0] : next.encode()));
        changes.add(
                NodeChange.replace(mine.seat.path(), versions.get(0), new byte[0], new byte[0]));
        if (due != null && !due.equals(mine.seat.name()) && seats.indexOf(due) < 0) {
            changes.add(NodeChange.delete(key.line() + "/" + due, -1));
        }
        if (next != null) {
            watchBefore(key, mine, next, next.size());
        }
        long started = System.nanoTime();
        WriteOutcome outcome = sendTurn(deadline, key, size, demand, changes);
        key.forget();
        if (outcome.landed()) {
            latency.landed(System.nanoTime() - started);
            Stat stat = outcome.stat(0);
            key.check(stat, after);
            key.see(new Seen(after, stat.getVersion(), data));
            if (next != null && epoch + 1 != -1) {
                mine.schedule = next;
                mine.epoch = epoch + 1;
                mine.slot = next.size();
            }
            return new Range(key.key(), after.next() - size, after.next());
        }
        mine.before = null;
        if (outcome.kind() == WriteOutcome.Kind.LOST_RACE
                && mine.seat.path().equals(outcome.failedOn())) {
            mine.seat = null;
        }
        return null; // another writer opened the epoch or wrote first: read again
    }

    /**
     * Whether every seat of the schedule is still in the line and has made exactly the turns the
     * schedule gives it before slot {@code done}: then the key's state is the schedule's, and the
     * epoch can go on. Anything else (a seat gone, a key written by hand) needs a new epoch.
     */
    private static boolean asScheduled(
            TurnSchedule plan, WriterLine.Order order, List<OpResult> seatReads, int done) {
        for (int i = 0; i < plan.size(); i++) {
            int at = order.indexOf(plan.seats().get(i));
            if (at < 0
                    || !(seatReads.get(2 + at) instanceof OpResult.GetDataResult g)
                    || g.getStat().getVersion() != plan.seatVersionBefore(i, done)) {
                return false;
            }
        }
        return true;
    }

    /**
     * One chained turn: this writer's slot, written over the state the schedule gives it, with the
     * checks that make it land only if every earlier slot of the epoch landed as scheduled. Returns
     * the range when it lands; otherwise forgets the epoch (or the seat, when it is gone).
     */
    private Range writeSlot(
            Deadline deadline,
            RangeKeyState key,
            RangeKeyState.Lingering mine,
            TurnSchedule plan,
            TurnSchedule.Slot slot,
            int me,
            long size,
            AcquireCoalescer.Demand demand) {
        RangeState before = TurnSchedule.stateAt(slot);
        RangeState after = after(key, before, size);
        byte[] data = RangeCodec.encode(after);
        int previous = (slot.index() - 1) % plan.size();
        List<NodeChange> changes = new ArrayList<>(4);
        changes.add(
                NodeChange.replace(key.path(), slot.version(), RangeCodec.encode(before), data));
        changes.add(NodeChange.check(key.line(), mine.epoch));
        if (previous != me) {
            changes.add(
                    NodeChange.check(
                            key.line() + "/" + plan.seats().get(previous),
                            plan.seatVersionBefore(previous, slot.index())));
        }
        changes.add(
                NodeChange.replace(
                        mine.seat.path(),
                        plan.seatVersionBefore(me, slot.index()),
                        new byte[0],
                        new byte[0]));
        watchBefore(key, mine, plan, plan.nextOf(slot.index()));
        long started = System.nanoTime();
        WriteOutcome outcome = sendTurn(deadline, key, size, demand, changes);
        key.forget();
        switch (outcome.kind()) {
            case LANDED -> {
                latency.landed(System.nanoTime() - started);
                Stat stat = outcome.stat(0);
                key.check(stat, after);
                key.see(new Seen(after, stat.getVersion(), data));
                mine.slot = plan.nextOf(slot.index());
                return new Range(key.key(), after.next() - size, after.next());
            }
            case LOST_RACE -> {
                if (mine.seat.path().equals(outcome.failedOn())) {
                    mine.seat = null; // gone or changed: join again
                }
            }
            case PARENT_MISSING, UNKNOWN, NODE_GONE -> {
                // read the line again; a turn still unknown after its copies is a gap
            }
        }
        mine.forgetEpoch();
        return null;
    }

    /**
     * Watches the seat whose turn comes just before this writer's slot {@code u}. A writer sends it
     * together with the turn before {@code u} (the same session, so the server takes it before or
     * after that turn, both before the seat can move): the notification then reaches it as soon as
     * the seat before writes, instead of the watch being set only after its own reply came back and
     * it was called again, one round trip later for a writer far from the server. Nothing to watch
     * when that seat is this writer's own (a line of one).
     */
    private void watchBefore(
            RangeKeyState key, RangeKeyState.Lingering mine, TurnSchedule plan, int u) {
        int before = (u - 1) % plan.size();
        if (plan.seats().get(before).equals(mine.seat.name())) {
            return;
        }
        mine.before =
                line.watchSeat(
                        key.line() + "/" + plan.seats().get(before),
                        plan.seatVersionBefore(before, u));
        mine.beforeSlot = u;
    }

    /**
     * Keeps the seat for a while, so that a writer that comes straight back keeps its place in the
     * schedule (one further from the server included); a writer that does not come back in time
     * leaves the line.
     */
    private void linger(RangeKeyState key, RangeKeyState.Lingering mine) {
        key.linger(mine);
        WriterLine.later(
                lingerNanos(),
                () -> {
                    if (key.leave(mine)) {
                        leave(mine);
                    }
                });
    }

    /**
     * Leaves the line without waiting: the seat goes and the epoch ends (the line node's version
     * moves and its schedule is cleared), so the writers behind open the next one at once instead
     * of waiting for this writer's slot.
     */
    private void leave(RangeKeyState.Lingering mine) {
        if (mine.seat != null) {
            line.leave(mine.seat);
        }
    }

    /** How long a seat is kept for a writer that may come back: a few of its write round trips. */
    private long lingerNanos() {
        return Math.max(MIN_LINGER_NANOS, 4 * latency.writeNanos());
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

    @Override
    public Optional<RangeState> peek(String key) {
        requireKey(key);
        Deadline deadline = lifecycle.start(Operation.RANGE_PEEK, OperationNames.rangePeek(key));
        return Optional.ofNullable(read(deadline, key(key))).map(Seen::state);
    }

    @Override
    public long advance(String key, long atLeast) {
        requireKey(key);
        requireAtLeast(atLeast);
        Deadline deadline =
                lifecycle.start(Operation.RANGE_ADVANCE, OperationNames.rangeAdvance(key));
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
            if (write(
                            deadline,
                            state,
                            current,
                            new RangeState(atLeast, false),
                            false,
                            true,
                            () -> {})
                    .landed()) {
                return atLeast;
            }
        }
        throw deadline.expired(null);
    }

    @Override
    public long seal(String key) {
        requireKey(key);
        Deadline deadline = lifecycle.start(Operation.RANGE_SEAL, OperationNames.rangeSeal(key));
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
                                    true,
                                    () -> {})
                            .landed()) {
                return now.next();
            }
        }
        throw deadline.expired(null);
    }

    @Override
    public SortedMap<String, RangeState> list() {
        Deadline deadline = lifecycle.start(Operation.RANGE_LIST, OperationNames.rangeList());
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
        Reply r =
                reads.one(
                        deadline,
                        h ->
                                Requests.multi(
                                        h,
                                        List.of(Op.getData(key.path()), Op.getData(key.line()))));
        if (r.results() == null || r.results().size() != 2) {
            throw failures.unexpected(deadline, r);
        }
        key.seeLine(LineSeen.of(Reply.ofRead(key.line(), r.results().get(1))));
        return seen(deadline, key, Reply.ofRead(key.path(), r.results().get(0)));
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
     * Sends a range write of {@code size} values; if its outcome is unknown (the reply lost, or the
     * time run out around the send) its values are counted as possibly skipped ({@link
     * RangeWaste}).
     */
    private WriteOutcome counted(long size, Supplier<WriteOutcome> send) {
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

    /**
     * Sends a turn of the key's line: one multi of {@code changes}, writing {@code size} values.
     */
    private WriteOutcome sendTurn(
            Deadline deadline,
            RangeKeyState key,
            long size,
            AcquireCoalescer.Demand demand,
            List<NodeChange> changes) {
        demand.settle(size); // the seat declared the size: callers that still wait fill it
        return counted(
                size,
                () ->
                        conditionalWrite.sendUntilAnswered(
                                deadline,
                                key.location(),
                                false,
                                changes,
                                () -> demand.settle(size)));
    }

    /** What this store's range writes may have skipped, by cause. */
    RangeWaste waste() {
        return waste;
    }

    /**
     * Writes {@code next} over what was seen (null: no node), resending it while its reply is lost
     * ({@link ConditionalWrite#sendUntilAnswered}; {@code beforeCopy} settles the callers it is
     * for, its size fixed). With {@code readBehind}, a lost race already knows the winner's state:
     * the retry costs no extra round trip. A {@code guarded} replace also checks that the key's
     * line is as last seen (creating it when it was absent). After any outcome but a landed write,
     * the next try reads first.
     */
    private WriteOutcome write(
            Deadline deadline,
            RangeKeyState key,
            Seen current,
            RangeState next,
            boolean readBehind,
            boolean guarded,
            Runnable beforeCopy) {
        byte[] data = RangeCodec.encode(next);
        List<NodeChange> changes = new ArrayList<>(2);
        changes.add(
                current == null
                        ? NodeChange.create(key.path(), data)
                        : NodeChange.replace(key.path(), current.version(), current.data(), data));
        LineSeen lineSeen = key.lineSeen();
        if (guarded && current != null) {
            // writers that joined the line since this writer last looked bumped its version: the
            // check makes this write fail, and the read behind it shows them
            changes.add(
                    lineSeen.exists()
                            ? NodeChange.check(key.line(), lineSeen.version())
                            : NodeChange.create(key.line(), new byte[0]));
        }
        WriteOutcome outcome =
                conditionalWrite.sendUntilAnswered(
                        deadline, key.location(), readBehind, changes, beforeCopy);
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
                // our write may or may not have landed (resent until answered, something else
                // came first): read again; its range is a gap
            }
        }
        return outcome;
    }
}
