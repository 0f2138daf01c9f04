package io.cosid.store.zookeeper.internal;

import static io.cosid.store.StoreArguments.printable;

import io.cosid.store.Range;
import io.cosid.store.StoreCorruptedException;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongConsumer;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;

/**
 * The seats of a range key: how a writer that lost races says it is waiting, and how the write that
 * lands serves it (docs/contract.md, "Liveness under contention"; store-zookeeper/README.md).
 *
 * <p>A seat is an ephemeral sequential node {@code w-s{size}-{id}-{seq}} under the key's line node
 * ({@link NodePaths#line}); posting one bumps the line node's data version, which every range write
 * checks, so no write lands past a seat it did not know of. A write serves a seat by deleting it at
 * version 0 and creating its result {@code r-{seat}} with the range ({@code start:end}), in the
 * same multi as the key's compare-and-set: a seat is served at most once, and whether it was is in
 * ZooKeeper, whatever became of the reply. Results are ephemeral nodes of the serving session; the
 * owner deletes its result once read, and the server deletes any its owner never came for.
 */
@Singleton
final class Seats {

    private static final String SEAT = "w-s";
    private static final String RESULT = "r-";

    /** A waiting writer's seat: its node's name under the line and the size it asks for. */
    record Seat(String line, String name, long size) {
        String path() {
            return line + "/" + name;
        }

        String result() {
            return line + "/" + RESULT + name;
        }
    }

    /**
     * A seat just posted, and the line's data version its post left ({@link #UNKNOWN}: a lost reply
     * was settled by a listing).
     */
    record Posted(Seat seat, long lineVersion) {}

    /** No int data version is this. */
    static final long UNKNOWN = Long.MIN_VALUE;

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
     * Posts a seat asking for {@code size}: one multi creates it and bumps the line's version.
     * Creates the line first when it is missing; a lost reply is settled by looking for the seat's
     * unique id. Null when the store may not write the line (its ACL): the key is then written by
     * compare-and-set alone.
     */
    Posted post(Deadline deadline, String line, long size) {
        String prefix = line + "/" + SEAT + size + "-" + UUID.randomUUID() + "-";
        List<Op> ops =
                List.of(
                        Requests.createEphemeralSequentialOp(prefix, paths.acl()),
                        Op.setData(line, new byte[0], -1)); // a counter: any version
        while (deadline.hasTimeLeft()) {
            Reply r = roundTrips.sendOne(deadline, h -> Requests.multi(h, ops));
            if (r.ok()) {
                String created = ((OpResult.CreateResult) r.results().get(0)).getPath();
                int version = ((OpResult.SetDataResult) r.results().get(1)).getStat().getVersion();
                return new Posted(new Seat(line, NodePaths.name(created), size), version);
            }
            if (r.is(Code.NOAUTH)) {
                return null;
            } else if (r.is(Code.NONODE)) {
                pathCreator.ensure(deadline, line);
            } else if (r.connectionProblem()) {
                Seat found = find(deadline, line, prefix);
                if (found != null) {
                    return new Posted(found, UNKNOWN);
                }
            } else {
                throw failures.unexpected(deadline, r);
            }
        }
        throw deadline.expired(null);
    }

    private Seat find(Deadline deadline, String line, String prefix) {
        String start = NodePaths.name(prefix);
        Reply children = roundTrips.sendOne(deadline, h -> Requests.getChildren(h, line));
        for (String name : children.ok() ? children.children() : List.<String>of()) {
            if (name.startsWith(start)) {
                return new Seat(line, name, size(name));
            }
        }
        return null;
    }

    /** The seats a listing of the line shows, oldest first; results and other nodes left out. */
    static List<Seat> waiting(String line, List<String> children) {
        List<Seat> seats = new ArrayList<>();
        for (String name : children) {
            long size = size(name);
            if (size > 0) {
                seats.add(new Seat(line, name, size));
            }
        }
        seats.sort(Comparator.comparingLong(s -> sequence(s.name())));
        return List.copyOf(seats);
    }

    /** The results a listing of the line shows, by path. */
    static List<String> results(String line, List<String> children) {
        return children.stream()
                .filter(c -> c.startsWith(RESULT))
                .map(c -> line + "/" + c)
                .toList();
    }

    /** The size a seat's name asks for; -1 when it is not a seat's name. */
    static long size(String name) {
        int end = name.indexOf('-', SEAT.length());
        if (!name.startsWith(SEAT) || end < 0) {
            return -1;
        }
        try {
            return Long.parseLong(name, SEAT.length(), end, 10);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static long sequence(String name) {
        try {
            return Long.parseLong(name.substring(name.lastIndexOf('-') + 1));
        } catch (NumberFormatException e) {
            return Long.MAX_VALUE;
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
     * Leaves without waiting for the answer: deletes the seat if it is still unserved, else its
     * result, whose range is then a gap ({@code servedAnyway} is told its size).
     */
    void leave(Seat seat, LongConsumer servedAnyway) {
        roundTrips.sendAndForget(
                h ->
                        Requests.delete(h, seat.path(), 0)
                                .thenCompose(
                                        r -> {
                                            if (!r.is(Code.NONODE)) {
                                                return CompletableFuture.completedFuture(r);
                                            }
                                            return Requests.delete(h, seat.result(), -1)
                                                    .whenComplete(
                                                            (gone, t) -> {
                                                                if (gone != null && gone.ok()) {
                                                                    servedAnyway.accept(
                                                                            seat.size());
                                                                }
                                                            });
                                        }));
    }

    /** Deletes a result once read, or one whose owner never came for it. */
    void delete(String result) {
        roundTrips.sendAndForget(h -> Requests.delete(h, result, -1));
    }
}
