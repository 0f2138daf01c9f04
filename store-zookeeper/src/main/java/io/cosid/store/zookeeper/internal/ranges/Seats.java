package io.cosid.store.zookeeper.internal.ranges;

import static io.cosid.store.StoreArguments.printable;

import io.cosid.store.Range;
import io.cosid.store.StoreCorruptedException;
import io.cosid.store.spi.Deadline;
import io.cosid.store.zookeeper.internal.wire.Failures;
import io.cosid.store.zookeeper.internal.wire.NodeChange;
import io.cosid.store.zookeeper.internal.wire.NodePaths;
import io.cosid.store.zookeeper.internal.wire.PathCreator;
import io.cosid.store.zookeeper.internal.wire.Reply;
import io.cosid.store.zookeeper.internal.wire.Requests;
import io.cosid.store.zookeeper.internal.wire.RoundTrips;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.function.LongConsumer;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.Op;
import org.jspecify.annotations.Nullable;

/**
 * The seats of a range key: how a writer that lost a race says it is waiting, and how the write
 * that lands serves it (docs/contract.md, "Liveness under contention"; store-zookeeper/README.md).
 *
 * <p>A seat is an ephemeral node {@code s-{order}-{size}-{id}} under the key's line node ({@link
 * NodePaths#line}): {@code order} is the key's next value as its writer last saw it, so seats sort
 * oldest first (a later writer saw a later value), {@code size} the values it asks for, {@code id}
 * unique. Posting one bumps the line node's data version, which every range write checks, so no
 * write lands past a seat it did not know of. A write serves a seat by deleting it at version 0 and
 * creating its result {@code r-{seat}} with the range ({@code start:end}), in the same multi as the
 * key's compare-and-set: a seat is served at most once, and whether it was is in ZooKeeper,
 * whatever became of the reply. Results are ephemeral nodes of the serving session; the owner
 * deletes its result with its next write or post, and the server deletes any its owner never came
 * for.
 */
@Singleton
public final class Seats {

    /**
     * How a seat's name starts. Not the {@code w-s} of the writer line before it, so that stores of
     * the two protocols on one key never serve or wait for each other's seats.
     */
    private static final String SEAT = "s-";

    private static final String RESULT = "r-";

    /** A waiting writer's seat: its node's name under the line, its order and its size. */
    record Seat(String line, String name, long order, long size) {
        String path() {
            return line + "/" + name;
        }

        String result() {
            return line + "/" + RESULT + name;
        }
    }

    /** The order seats are served in: by the key's value their writers saw, then by name. */
    static final Comparator<Seat> OLDEST_FIRST =
            Comparator.comparingLong(Seat::order).thenComparing(Seat::name);

    private final RoundTrips roundTrips;
    private final PathCreator pathCreator;
    private final Failures failures;
    private final NodePaths paths;

    @Inject
    Seats(RoundTrips roundTrips, PathCreator pathCreator, Failures failures, NodePaths paths) {
        this.roundTrips = roundTrips;
        this.pathCreator = pathCreator;
        this.failures = failures;
        this.paths = paths;
    }

    /**
     * Posts a seat asking for {@code size}: one multi creates it, bumps the line's version and
     * deletes the results its writer already read ({@code consumed}, dropped from the list when one
     * is gone). Creates the line first when it is missing; a lost reply is settled by looking for
     * the seat. Null when the store may not write the line (its ACL): the key is then written by
     * compare-and-set alone. The writer reads the line before it writes again, so the version the
     * post left is not kept.
     */
    @Nullable Seat post(
            Deadline deadline, String line, long order, long size, List<String> consumed) {
        Seat seat =
                new Seat(line, SEAT + order + "-" + size + "-" + UUID.randomUUID(), order, size);
        while (deadline.hasTimeLeft()) {
            List<Op> ops = new ArrayList<>();
            ops.add(Op.create(seat.path(), new byte[0], paths.acl(), CreateMode.EPHEMERAL));
            ops.add(Op.setData(line, new byte[0], -1)); // a counter: any version
            consumed.forEach(result -> ops.add(Op.delete(result, -1)));
            Reply posted = roundTrips.sendOne(deadline, h -> Requests.multi(h, ops));
            if (posted.ok()) {
                consumed.clear();
                return seat;
            }
            if (posted.is(Code.NOAUTH)) {
                return null;
            } else if (posted.is(Code.NONODE)) {
                // a result already gone (its serving session ended, or swept), or the line
                if (!consumed.remove(posted.path())) {
                    pathCreator.ensure(deadline, line);
                }
            } else if (posted.connectionProblem()) {
                Reply there = roundTrips.sendOne(deadline, h -> Requests.getData(h, seat.path()));
                if (there.ok()) {
                    return seat;
                }
            } else {
                throw failures.unexpected(deadline, posted);
            }
        }
        throw deadline.expired(null);
    }

    /** The seats a listing of the line shows, oldest first; results and other nodes left out. */
    static List<Seat> waiting(String line, List<String> children) {
        List<Seat> seats = new ArrayList<>();
        for (String name : children) {
            Seat seat = parse(line, name);
            if (seat != null) {
                seats.add(seat);
            }
        }
        seats.sort(OLDEST_FIRST);
        return List.copyOf(seats);
    }

    /** The results a listing of the line shows, by path. */
    static List<String> results(String line, List<String> children) {
        return children.stream()
                .filter(c -> c.startsWith(RESULT))
                .map(c -> line + "/" + c)
                .toList();
    }

    /** The seat a child name of the line is; null when it is not one that asks for values. */
    static @Nullable Seat parse(String line, String name) {
        String[] parts = name.split("-", 4);
        if (parts.length != 4 || !name.startsWith(SEAT)) {
            return null;
        }
        try {
            long order = Long.parseLong(parts[1]);
            long size = Long.parseLong(parts[2]);
            return order >= 0 && size > 0 ? new Seat(line, name, order, size) : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /**
     * The changes that serve {@code seat} with {@code [start, start + size)} inside a range write:
     * the seat deleted at version 0, its result created.
     */
    static List<NodeChange> serve(Seat seat, long start) {
        byte[] data = (start + ":" + (start + seat.size())).getBytes(StandardCharsets.US_ASCII);
        return List.of(
                NodeChange.delete(seat.path(), 0), NodeChange.ephemeral(seat.result(), data));
    }

    /** The seat's range from its result's data, checked against the size it asked for. */
    static Range range(String key, Seat seat, byte[] data) {
        String text = data == null ? "" : new String(data, StandardCharsets.US_ASCII);
        int colon = text.indexOf(':');
        try {
            long start = Long.parseLong(text.substring(0, Math.max(colon, 0)));
            long end = Long.parseLong(text.substring(colon + 1));
            if (start >= 0 && end - start == seat.size()) {
                return new Range(key, start, end);
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new StoreCorruptedException(
                seat.result(),
                "a seat's result must be start:end for the "
                        + seat.size()
                        + " values the seat asked for, not '"
                        + printable(text)
                        + "'");
    }

    /**
     * Leaves without waiting for the answers: deletes the seat if it is still unserved, then its
     * result if a write served it first, whose range is then a gap ({@code servedAnyway} is told
     * its size). One session sends both in order, so a seat deleted unserved can have no result.
     */
    void leave(Seat seat, LongConsumer servedAnyway) {
        roundTrips.sendAndForget(h -> Requests.delete(h, seat.path(), 0));
        roundTrips.sendAndForget(
                h ->
                        Requests.delete(h, seat.result(), -1)
                                .whenComplete(
                                        (gone, t) -> {
                                            if (gone != null && gone.ok()) {
                                                servedAnyway.accept(seat.size());
                                            }
                                        }));
    }

    /** Deletes a result once read, or one whose owner never came for it. */
    void delete(String result) {
        roundTrips.sendAndForget(h -> Requests.delete(h, result, -1));
    }
}
