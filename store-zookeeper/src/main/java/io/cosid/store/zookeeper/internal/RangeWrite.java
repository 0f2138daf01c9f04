package io.cosid.store.zookeeper.internal;

import io.cosid.store.Range;
import io.cosid.store.RangeExhaustedException;
import io.cosid.store.RangeSealedException;
import io.cosid.store.RangeState;
import io.cosid.store.zookeeper.internal.RangeKeyState.Seen;
import io.cosid.store.zookeeper.internal.ZooKeeperRangeStore.Look;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.jspecify.annotations.Nullable;

/**
 * One turn of a key's {@link AcquireCoalescer}: writes until a range lands for the callers it
 * carries, or until a write of another store serves them (docs/contract.md, "Liveness under
 * contention"; store-zookeeper/README.md). This object owns the protocol state of the turn: the
 * writer's seat, its lost races, and whether the state it writes over is the turn's own.
 *
 * <p>Every try is one compare-and-set of the key that also serves the seats waiting in the key's
 * line ({@link ZooKeeperRangeStore#write}), so whoever lands serves everyone waiting. A writer that
 * loses a race while others wait in the line (else: loses twice) posts a seat. The first seat in
 * the line writes at once, for everyone waiting; the others wait a little and read whether a write
 * served them, and write themselves, for everyone waiting, when none has. A writer that gives up,
 * or fails, leaves its seat; if a write served it first, that range is a gap.
 */
final class RangeWrite {

    /** The shortest wait for a serve before a seated writer writes itself. */
    private static final long MIN_WAIT_NANOS = TimeUnit.MICROSECONDS.toNanos(500);

    private final ZooKeeperRangeStore store;
    private final Seats seats;
    private final RangeKeyState key;
    private final AcquireCoalescer.Demand demand;
    private final Deadline deadline;

    /** This writer's seat in the key's line; null: none. */
    private Seats.@Nullable Seat mine;

    /** Races lost in this turn. */
    private int lost;

    /**
     * Whether the state to write over ({@link RangeKeyState#seen}) is this turn's: read in it, or
     * left standing by its last try.
     */
    private boolean current;

    /** Whether the line moved since this store read it (a write failed its check): read first. */
    private boolean lineMoved;

    RangeWrite(
            ZooKeeperRangeStore store,
            Seats seats,
            RangeKeyState key,
            AcquireCoalescer.Demand demand,
            Deadline deadline) {
        this.store = store;
        this.seats = seats;
        this.key = key;
        this.demand = demand;
        this.deadline = deadline;
    }

    /**
     * The range for the callers of the demand; null when nobody waits any more.
     *
     * <p>The first try writes over the state this store last saw without reading it (one round
     * trip, one request) while that state usually is still the key's, that is while this store is
     * the key's only writer; once another process wrote in between, it reads first, until a read
     * shows the key as it left it ({@link RangeKeyState#othersWrite}).
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
                boolean blind = asRead && !current;
                if (!asRead) {
                    lineMoved = false;
                    if (mine != null && !first()) {
                        awaitServe();
                    }
                    Look look = store.read(deadline, key, mine);
                    store.counts().add(RangeCounts.Count.READS);
                    if (known != null && mine == null) {
                        Seen now = look.node();
                        key.othersWrite(now == null || now.version() != known.version());
                    }
                    Range served = taken(look);
                    if (served != null) {
                        return served;
                    }
                    over = look.node();
                }
                Range range = tryOnce(over, size, blind);
                if (range != null) {
                    return range;
                }
            }
            throw deadline.expired(null);
        } finally {
            if (mine != null) {
                seats.leave(mine, store.waste()::givenUp);
            }
        }
    }

    /**
     * Whether no seat older than this writer's waits, as far as it last read the line: the first
     * seat does not wait for others to serve it but writes for everyone at once, as the combiner.
     */
    private boolean first() {
        return key.lineSeen().waiting().stream()
                .noneMatch(s -> Seats.OLDEST_FIRST.compare(s, mine) < 0);
    }

    /**
     * Waits two of this store's landed writes' round trips (at least {@link #MIN_WAIT_NANOS}): the
     * time the first seat's writer takes to read and write for everyone waiting. Then the writer
     * reads whether it was served. A watch on the seat would cost one more request per seat than
     * this read after a wait, which usually finds the seat served (docs/performance.md, run 25).
     */
    private void awaitServe() {
        long wait =
                Math.min(
                        Math.max(MIN_WAIT_NANOS, 2 * store.latency().writeNanos()),
                        deadline.remainingNanos());
        store.counts().add(RangeCounts.Count.WAITS);
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
        long started = System.nanoTime();
        WriteOutcome outcome =
                store.counted(
                        size,
                        () ->
                                store.write(
                                        deadline,
                                        key,
                                        over,
                                        next,
                                        true,
                                        seat,
                                        () -> demand.settle(size)));
        current = false;
        switch (outcome.kind()) {
            case LANDED -> {
                store.latency().landed(System.nanoTime() - started);
                store.counts().add(RangeCounts.Count.LANDED);
                if (blind) {
                    key.othersWrite(false);
                }
                mine = null; // the write deleted it
                return new Range(key.key(), next.next() - size, next.next());
            }
            case LOST_RACE -> {
                String on = outcome.failedOn();
                if (on != null && on.startsWith(key.line() + "/")) {
                    store.counts().add(RangeCounts.Count.FAILED_ON_SEAT);
                    // a seat went before this write could serve it (this writer's own: by hand or
                    // with its session), or a result it read is gone already: the key and the line
                    // stand as read, try again at once
                    if (seat != null && on.equals(seat.path())) {
                        mine = null;
                    }
                    current = true;
                } else if (on != null && on.equals(key.line())) {
                    store.counts().add(RangeCounts.Count.FAILED_ON_LINE);
                    // seats posted since this store read the line, the key as it left it: read the
                    // line, and write for them
                    lineMoved = true;
                    return null;
                } else {
                    lost++;
                    store.counts().add(RangeCounts.Count.FAILED_ON_KEY);
                    key.othersWrite(true);
                    // others waiting show a queue: join it at once; else a lone race, which a read
                    // and another try usually settle, as compare-and-set does between two writers
                    boolean queue = !key.lineSeen().waiting().isEmpty();
                    if (mine == null && !key.plain() && lost >= (queue ? 1 : 2)) {
                        post(size);
                    }
                }
                return null;
            }
            default -> {
                return null; // read again before the next try
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
        key.othersWrite(true);
        store.counts().add(RangeCounts.Count.SERVED);
        demand.fit(look.served().size());
        return look.served();
    }

    /** Posts this writer's seat, deleting the results it read before. */
    private void post(long size) {
        List<String> read = key.resultsToDelete();
        Seats.Seat posted =
                seats.post(deadline, key.line(), key.highestNext(), size, new ArrayList<>(read));
        if (posted == null) {
            store.notAllowed(key, key.line());
            return;
        }
        key.resultsDeleted(read);
        store.counts().add(RangeCounts.Count.POSTS);
        mine = posted;
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
