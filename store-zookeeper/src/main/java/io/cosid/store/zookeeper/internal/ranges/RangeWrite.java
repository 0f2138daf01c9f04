package io.cosid.store.zookeeper.internal.ranges;

import io.cosid.store.Range;
import io.cosid.store.RangeExhaustedException;
import io.cosid.store.RangeSealedException;
import io.cosid.store.RangeState;
import io.cosid.store.spi.Deadline;
import io.cosid.store.zookeeper.internal.ranges.RangeKey.Look;
import io.cosid.store.zookeeper.internal.ranges.RangeKey.Seen;
import io.cosid.store.zookeeper.internal.wire.WriteOutcome;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.jspecify.annotations.Nullable;

/**
 * One turn of a key's {@link AcquireCoalescer}: writes until a range lands for the callers it
 * carries, or until a write of another store serves them (docs/contract.md, "Liveness under
 * contention"; store-zookeeper/README.md). This object owns the protocol state of the turn: the
 * writer's seat, whether the line moved under it, and whether the state it writes over is the
 * turn's own.
 *
 * <p>Every try is one compare-and-set of the key that also serves the seats waiting in the key's
 * line ({@link RangeKey#write}), so whoever lands serves everyone waiting. A writer whose write
 * over a fresh read loses, or that loses while others wait in the line, posts a seat; a blind write
 * that loses is the first news of another writer, and a read and one more try usually settle it.
 * The first seat with others behind it writes at once, for everyone waiting; the others, and a seat
 * alone (the writer that beat it serves it with its next write), wait a little and read whether a
 * write served them, and write themselves, for everyone waiting, when none has. A writer that gives
 * up, or fails, leaves its seat; if a write served it first, that range is a gap.
 */
final class RangeWrite {

    /** The shortest wait for a serve before a seated writer writes itself. */
    private static final long MIN_WAIT_NANOS = TimeUnit.MICROSECONDS.toNanos(500);

    private final RangeKey key;
    private final RangeKey.Shared shared;
    private final AcquireCoalescer.Demand demand;
    private final Deadline deadline;

    /** This writer's seat in the key's line; null: none. */
    private Seats.@Nullable Seat mine;

    /**
     * Whether the state to write over ({@link RangeKey#seen}) is this turn's: read in it, or left
     * standing by its last try.
     */
    private boolean current;

    /** Whether the line moved since this store read it (a write failed its check): read first. */
    private boolean lineMoved;

    RangeWrite(RangeKey key, AcquireCoalescer.Demand demand, Deadline deadline) {
        this.key = key;
        this.shared = key.shared();
        this.demand = demand;
        this.deadline = deadline;
    }

    /**
     * The range for the callers of the demand; null when nobody waits any more.
     *
     * <p>The first try writes over the state this store last saw without reading it (one round
     * trip, one request) while that state usually is still the key's, that is while this store is
     * the key's only writer; once another process wrote in between, it reads first, until a read
     * shows the key as it left it ({@link RangeKey#othersWrite}).
     */
    @Nullable Range run() {
        try {
            while (deadline.hasTimeLeft()) {
                long size = demand.settle();
                if (size == 0) {
                    return null; // every caller it wrote for gave up: nothing is written
                }
                Seen known = key.seen();
                Seen over = known;
                boolean asRead =
                        mine == null
                                && !lineMoved
                                && known != null
                                && (current || !key.othersWrite());
                if (!asRead) {
                    lineMoved = false;
                    if (mine != null && !first()) {
                        awaitServe();
                    }
                    Look look = key.read(deadline, mine);
                    shared.counts().add(RangeCounts.Count.READS);
                    Range served = taken(look);
                    if (served != null) {
                        return served;
                    }
                    over = look.node();
                }
                Range range = tryOnce(over, size, asRead && !current);
                if (range != null) {
                    return range;
                }
            }
            throw deadline.expired(null);
        } finally {
            if (mine != null) {
                shared.seats().leave(mine, shared.waste()::givenUp);
            }
        }
    }

    /**
     * Whether this writer's seat is the first of several, as far as it last read the line: the
     * first seat with others behind it does not wait to be served but writes for everyone at once,
     * as their combiner. A seat alone waits: the writer that beat it is writing, and its next write
     * serves it (docs/performance-history.md, run 32).
     */
    private boolean first() {
        List<Seats.Seat> waiting = key.lineSeen().waiting();
        return !waiting.isEmpty()
                && waiting.stream().noneMatch(s -> Seats.OLDEST_FIRST.compare(s, mine) < 0);
    }

    /**
     * Waits two of this store's landed writes' round trips (at least {@link #MIN_WAIT_NANOS}): the
     * time the first seat's writer, or the writer that beat a seat alone, takes to read and write
     * for everyone waiting. Then the writer reads whether it was served. A watch on the seat would
     * cost one more request per seat than this read after a wait, which usually finds the seat
     * served (docs/performance-history.md, run 25).
     */
    private void awaitServe() {
        long wait =
                Math.min(
                        Math.max(MIN_WAIT_NANOS, 2 * shared.latency().writeNanos()),
                        deadline.remainingNanos());
        shared.counts().add(RangeCounts.Count.WAITS);
        LockSupport.parkNanos(this, Math.max(wait, 0));
        if (Thread.currentThread().isInterrupted()) {
            throw deadline.interrupted(new InterruptedException("interrupted while waiting"));
        }
    }

    /**
     * One compare-and-set over {@code over} for {@code size} values, serving the seats waiting: the
     * range when it landed; null to try again.
     */
    private @Nullable Range tryOnce(@Nullable Seen over, long size, boolean blind) {
        RangeState next = after(ZooKeeperRangeStore.stateOf(over), size);
        Seats.Seat seat = mine;
        long started = shared.ticker().nanos();
        WriteOutcome outcome =
                shared.waste()
                        .counted(
                                size,
                                () ->
                                        key.write(
                                                deadline,
                                                over,
                                                next,
                                                RangeKey.Serving.SEATS_WAITING,
                                                seat,
                                                () -> demand.fillExactly(size)));
        current = false;
        switch (outcome.kind()) {
            case LANDED -> {
                shared.latency().landed(shared.ticker().nanos() - started);
                shared.counts().add(RangeCounts.Count.LANDED);
                mine = null; // the write deleted it
                return new Range(key.key(), next.next() - size, next.next());
            }
            case LOST_RACE -> {
                lost(outcome.failedOn(), seat, size, blind);
                return null;
            }
            default -> {
                return null; // read again before the next try
            }
        }
    }

    /** What this writer does next after its write lost the race on node {@code on}. */
    private void lost(@Nullable String on, Seats.@Nullable Seat seat, long size, boolean blind) {
        switch (LostOn.of(on, key.line())) {
            case SEAT -> {
                shared.counts().add(RangeCounts.Count.FAILED_ON_SEAT);
                // a seat went before this write could serve it (this writer's own: by hand or with
                // its session), or a result it read is gone already: the key and the line stand as
                // read, try again at once
                if (seat != null && seat.path().equals(on)) {
                    mine = null;
                }
                current = true;
            }
            case LINE -> {
                shared.counts().add(RangeCounts.Count.FAILED_ON_LINE);
                // seats posted since this store read the line, the key as it left it: read the
                // line, and write for them
                lineMoved = true;
            }
            case KEY -> {
                shared.counts().add(RangeCounts.Count.FAILED_ON_KEY);
                // a write over a fresh read that loses, or others waiting, show a hot key: take a
                // seat at once; a blind write that loses is the first news of another writer, a
                // lone race that a read and another try usually settle
                boolean queue = !key.lineSeen().waiting().isEmpty();
                if (mine == null && !key.lineRefused() && (!blind || queue)) {
                    mine = key.post(deadline, size);
                }
            }
        }
    }

    /**
     * What a read showed of this writer's seat: the range it was served with (the callers that fit
     * in it take it), or null while it waits; a seat gone unserved is forgotten.
     */
    private @Nullable Range taken(Look look) {
        if (look.seatGone()) {
            mine = null;
        }
        if (look.served() == null) {
            return null;
        }
        shared.counts().add(RangeCounts.Count.SERVED);
        demand.fit(look.served().size());
        return look.served();
    }

    /** The state after a range of {@code size} from {@code state}, or why there is none. */
    private RangeState after(RangeState state, long size) {
        if (state.sealed()) {
            throw new RangeSealedException(key.key(), state.next());
        }
        if (size > Long.MAX_VALUE - state.next()) {
            throw new RangeExhaustedException(key.key(), state.next(), size);
        }
        return new RangeState(state.next() + size, false);
    }
}
