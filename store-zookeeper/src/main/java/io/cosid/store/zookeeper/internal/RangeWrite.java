package io.cosid.store.zookeeper.internal;

import io.cosid.store.Range;
import io.cosid.store.RangeExhaustedException;
import io.cosid.store.RangeSealedException;
import io.cosid.store.RangeState;
import io.cosid.store.zookeeper.internal.RangeKeyState.LineSeen;
import io.cosid.store.zookeeper.internal.RangeKeyState.Seen;
import io.cosid.store.zookeeper.internal.Seats.Seat;
import io.cosid.store.zookeeper.internal.ZooKeeperRangeStore.Look;
import org.jspecify.annotations.Nullable;

/**
 * One turn of a key's {@link AcquireCoalescer}: writes until a range lands for the callers it
 * carries, or until a write of another store serves them (docs/contract.md, "Liveness under
 * contention"; store-zookeeper/README.md). This object owns the protocol state of the turn: the
 * writer's seat, its lost races, and whether the state it writes over is the turn's own.
 *
 * <p>Every try is one compare-and-set of the key that also serves the seats waiting in the key's
 * line ({@link ZooKeeperRangeStore#write}), so whoever lands serves everyone waiting. A writer that
 * lost {@value #SEAT_AFTER_LOSSES} races posts a seat of its own and keeps trying; each try then
 * reads behind it whether another write served the seat. A writer that gives up, or fails, leaves
 * its seat; if a write served it first, that range is a gap.
 */
final class RangeWrite {

    /**
     * Races lost in one turn after which a writer posts a seat. Not after one: two stores that take
     * turns on a key would each post and leave a seat per acquire for nothing, while the second
     * loss is where a writer starts to be overtaken.
     */
    static final int SEAT_AFTER_LOSSES = 2;

    private final ZooKeeperRangeStore store;
    private final Seats seats;
    private final RangeKeyState key;
    private final AcquireCoalescer.Demand demand;
    private final Deadline deadline;

    /** This writer's seat in the key's line; null: none. */
    private @Nullable Seat mine;

    /** Races lost in this turn. */
    private int lost;

    /**
     * Whether the state to write over ({@link RangeKeyState#seen}) is this turn's: read in it, or
     * left standing by its last try.
     */
    private boolean current;

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
                boolean blind = !current && known != null && !key.othersWrite() && mine == null;
                Seen over = known;
                if (!blind && !(current && known != null)) {
                    Look look = store.read(deadline, key, mine);
                    if (known != null) {
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
     * One compare-and-set over {@code over} for {@code size} values, serving the seats waiting. The
     * range when it landed, or when the reads behind it show this writer's seat served; null to try
     * again.
     */
    private @Nullable Range tryOnce(@Nullable Seen over, long size, boolean blind) {
        RangeState next = after(ZooKeeperRangeStore.stateOf(over), size);
        Seat seat = mine;
        boolean readBehind = key.hot() && (blind || seat != null);
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
                                        readBehind,
                                        () -> demand.settle(size)));
        current = false;
        switch (outcome.kind()) {
            case LANDED -> {
                if (blind) {
                    key.othersWrite(false);
                }
                mine = null; // the write deleted it
                return new Range(key.key(), next.next() - size, next.next());
            }
            case LOST_RACE -> {
                String on = outcome.failedOn();
                if (on != null && on.startsWith(key.line() + "/")) {
                    // a seat went before this write could serve it (this writer's own: by hand or
                    // with its session): the key and the line stand as read, try again at once
                    if (seat != null && on.equals(seat.path())) {
                        mine = null;
                    }
                    current = true;
                    return null;
                }
                lost++;
                key.lost();
                if (blind) {
                    key.othersWrite(true);
                }
                if (!outcome.reads().isEmpty()) {
                    Range served = taken(store.look(deadline, key, mine, outcome.reads()));
                    if (served != null) {
                        return served;
                    }
                    current = true;
                }
                if (lost >= SEAT_AFTER_LOSSES && mine == null && !key.plain()) {
                    post(size);
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
        demand.fit(look.served().size());
        return look.served();
    }

    /**
     * Posts this writer's seat. When the post moved the line by exactly one version from what the
     * writer read, nobody else posted in between and the next try writes at once; else it reads.
     */
    private void post(long size) {
        Seats.Posted posted = seats.post(deadline, key.line(), size);
        if (posted == null) {
            store.notAllowed(key, key.line());
            return;
        }
        mine = posted.seat();
        LineSeen line = key.lineSeen();
        if (current && line.exists() && posted.lineVersion() == line.version() + 1L) {
            key.seeLine(new LineSeen(true, (int) posted.lineVersion(), line.waiting()));
        } else {
            current = false;
        }
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
