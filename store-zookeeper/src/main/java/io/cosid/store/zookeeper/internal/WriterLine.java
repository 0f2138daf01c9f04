package io.cosid.store.zookeeper.internal;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.Watcher;

/**
 * The line that the writers of a contended range key join, so that each of them is served in turn
 * however near the server it is or however the machine schedules it (docs/contract.md, "Liveness
 * under contention").
 *
 * <p>Why a line: compare-and-set alone is not fair. The writer whose write just landed learns the
 * new version first and wins again; a writer further from the server loses every race; on a machine
 * whose CPUs are saturated, who runs next is the scheduler's choice. A writer that lost twice
 * therefore joins the key's line: an ephemeral sequential node (its <em>seat</em>) under {@code
 * {root}/.line/{digest}} ({@link NodePaths#line}), named with the size it asks for.
 *
 * <p>Epochs: the line node's data version. Everything that changes who writes the key bumps it: a
 * writer joining or leaving, a write from outside the line, an {@code advance} or a {@code seal},
 * and the turn that opens an epoch. That opening turn reads the key and the seats and writes, with
 * the key, the epoch's {@link TurnSchedule} into the line node: the seats in turn order (itself
 * first), their sizes and their nodes' versions, and the key's state it wrote over.
 *
 * <p>Turns, one write round trip apart: within an epoch every writer knows from the schedule which
 * slots are its own and the key's exact state before each, so it writes its slot without reading
 * the key, as soon as the seat before it has written (a watch on that seat, whose data version each
 * turn bumps). A chained turn is one multi: the key's {@code setData} at the slot's version, a
 * check that the line is still at the epoch, a check that the seat before has made exactly its
 * turns, and its own seat's version bumped. It lands only if every earlier slot of the epoch landed
 * as scheduled; anything else (a skipped slot, a writer gone, a key written by hand) fails it, and
 * the writer reads the line again, so a wrong expectation costs a failed write, never a duplicate.
 * A seat whose slot is due and whose writer does not write while the key stands still is removed by
 * the turn that opens the next epoch.
 */
@Singleton
final class WriterLine {

    /** How a seat is named: the size asked for, a unique id (to find it after a lost reply). */
    private static final String SEAT = "w-";

    /** Marks the declared size in a seat's name ({@code w-s100-{id}-{seq}}). */
    private static final String SIZE = "s";

    private final RoundTrips roundTrips;
    private final Reads reads;
    private final Failures failures;
    private final PathCreator pathCreator;
    private final NodePaths paths;

    @Inject
    WriterLine(
            RoundTrips roundTrips,
            Reads reads,
            Failures failures,
            PathCreator pathCreator,
            NodePaths paths) {
        this.roundTrips = roundTrips;
        this.reads = reads;
        this.failures = failures;
        this.pathCreator = pathCreator;
        this.paths = paths;
    }

    /**
     * A writer's seat in a line.
     *
     * @param line the line node
     * @param name the seat's node name
     * @param size the size it declares; -1 when its name declares none (another writer's, or one
     *     placed by hand)
     */
    record Seat(String line, String name, long size) {
        String path() {
            return line + "/" + name;
        }
    }

    /**
     * A line as read: its seats in order, first first.
     *
     * @param seats the seats, first first
     */
    record Order(List<Seat> seats) {

        int index(Seat seat) {
            return indexOf(seat.name());
        }

        /** The position of the seat named {@code name}; -1 when the line does not hold it. */
        int indexOf(String name) {
            for (int i = 0; i < seats.size(); i++) {
                if (seats.get(i).name().equals(name)) {
                    return i;
                }
            }
            return -1;
        }

        boolean holds(Seat seat) {
            return index(seat) >= 0;
        }
    }

    /** One daemon thread for every store in the JVM, to leave seats nobody came back for. */
    private static final ScheduledThreadPoolExecutor TIMER = timer();

    private static ScheduledThreadPoolExecutor timer() {
        ScheduledThreadPoolExecutor timer =
                new ScheduledThreadPoolExecutor(
                        1,
                        r -> {
                            Thread t = new Thread(r, "cosid-store-writer-line");
                            t.setDaemon(true);
                            return t;
                        });
        timer.setRemoveOnCancelPolicy(true);
        return timer;
    }

    /** Runs {@code task} on the line's timer thread after {@code nanos}. */
    static void later(long nanos, Runnable task) {
        var unused = TIMER.schedule(task, nanos, TimeUnit.NANOSECONDS);
    }

    /** The prefix of a new seat asking for {@code size}. */
    private static String seatPrefix(String line, long size, String id) {
        return line + "/" + SEAT + SIZE + size + "-" + id + "-";
    }

    /** A seat from the path a create returned. */
    static Seat seatAt(String line, String createdPath) {
        String name = createdPath.substring(createdPath.lastIndexOf('/') + 1);
        return new Seat(line, name, declaredSize(name));
    }

    /**
     * Joins the line at its back: one transaction that creates this writer's seat and bumps the
     * line's version, so that every writer outside the line fails its next check and sees it.
     * Creates the line first when it is missing. A lost reply is settled by looking for the seat's
     * unique id.
     */
    Seat join(Deadline deadline, String line, long size) {
        String id = UUID.randomUUID().toString();
        String prefix = seatPrefix(line, size, id);
        while (deadline.hasTimeLeft()) {
            Reply r =
                    roundTrips.sendOne(
                            deadline,
                            h ->
                                    Requests.multi(
                                            h,
                                            List.of(
                                                    Requests.createEphemeralSequentialOp(
                                                            prefix, paths.acl()),
                                                    Op.setData(line, new byte[0], -1))));
            if (r.ok()) {
                return seatAt(line, ((OpResult.CreateResult) r.results().get(0)).getPath());
            }
            if (r.is(Code.NONODE)) {
                pathCreator.ensure(deadline, line);
            } else if (r.connectionProblem()) {
                Seat found = find(deadline, line, prefix);
                if (found != null) {
                    return found;
                }
            } else {
                throw failures.unexpected(deadline, r);
            }
        }
        throw deadline.expired(null);
    }

    /** The seat whose name starts as {@code prefix} does, if the line holds it. */
    Seat find(Deadline deadline, String line, String prefix) {
        String start = prefix.substring(line.length() + 1);
        Reply children = reads.one(deadline, h -> Requests.getChildren(h, line));
        if (children.ok()) {
            for (String name : children.children()) {
                if (name.startsWith(start)) {
                    return new Seat(line, name, declaredSize(name));
                }
            }
        }
        return null;
    }

    /** The line's seats in the order they were taken, from a listing of the line node. */
    static Order order(String line, Reply children) {
        if (children == null || !children.ok() || children.children() == null) {
            return new Order(List.of());
        }
        return order(line, children.children());
    }

    /** The line's seats in the order they were taken, from the line node's child names. */
    static Order order(String line, List<String> children) {
        List<Seat> seats = new ArrayList<>();
        for (String name : children) {
            if (name.startsWith(SEAT)) {
                seats.add(new Seat(line, name, declaredSize(name)));
            }
        }
        seats.sort(Comparator.comparingLong(s -> sequence(s.name())));
        return new Order(List.copyOf(seats));
    }

    /** The size a seat's name declares; -1 when it declares none. */
    static long declaredSize(String name) {
        if (!name.startsWith(SEAT + SIZE)) {
            return -1;
        }
        int end = name.indexOf('-', SEAT.length() + SIZE.length());
        try {
            return end < 0
                    ? -1
                    : Long.parseLong(name.substring(SEAT.length() + SIZE.length(), end));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** The number ZooKeeper appended (10 digits after the last '-'). */
    private static long sequence(String name) {
        try {
            return Long.parseLong(name.substring(name.lastIndexOf('-') + 1));
        } catch (NumberFormatException e) {
            return Long.MAX_VALUE;
        }
    }

    /**
     * Watches a seat until its node's data version reaches {@code version} (its writer made the
     * turn before this writer's) or it goes: the future completes with true when the version was
     * reached or the node changed, false when the node is gone.
     */
    CompletableFuture<Boolean> watchSeat(String path, int version) {
        CompletableFuture<Boolean> moved = new CompletableFuture<>();
        roundTrips.sendAndForget(
                h ->
                        Requests.exists(
                                        h,
                                        path,
                                        e ->
                                                moved.complete(
                                                        e.getType()
                                                                != Watcher.Event.EventType
                                                                        .NodeDeleted))
                                .whenComplete(
                                        (r, t) -> {
                                            if (r == null || r.is(Code.NONODE)) {
                                                moved.complete(false);
                                            } else if (r.ok()
                                                    && r.stat().getVersion() - version >= 0) {
                                                moved.complete(true);
                                            } else if (!r.ok()) {
                                                moved.complete(false);
                                            }
                                        }));
        return moved;
    }

    /**
     * Watches the line node until its data version is no longer {@code epoch}: the future completes
     * when a reply or a watch shows that the epoch ended.
     */
    CompletableFuture<Boolean> watchEpoch(String line, int epoch) {
        CompletableFuture<Boolean> ended = new CompletableFuture<>();
        roundTrips.sendAndForget(
                h ->
                        Requests.exists(h, line, e -> ended.complete(true))
                                .whenComplete(
                                        (r, t) -> {
                                            if (r == null
                                                    || !r.ok()
                                                    || r.stat().getVersion() != epoch) {
                                                ended.complete(true);
                                            }
                                        }));
        return ended;
    }

    /** How a wait for the seat before this writer's slot ended. */
    enum Wait {
        /** The seat before changed: its turn landed. */
        MOVED,
        /** The seat before is gone. */
        GONE,
        /** The line's epoch ended. */
        EPOCH_ENDED,
        /** Nothing happened for the whole wait. */
        STILL
    }

    /** Waits for either watch at most {@code maxNanos} and the budget. */
    static Wait await(
            Deadline deadline,
            CompletableFuture<Boolean> before,
            CompletableFuture<Boolean> epochEnded,
            long maxNanos) {
        long wait = Math.min(maxNanos, deadline.remainingNanos());
        try {
            CompletableFuture.anyOf(before, epochEnded)
                    .get(Math.max(wait, 0), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            return Wait.STILL;
        } catch (InterruptedException e) {
            throw deadline.interrupted(e);
        } catch (ExecutionException e) {
            return Wait.GONE;
        }
        if (epochEnded.isDone()) {
            return Wait.EPOCH_ENDED;
        }
        return before.join() ? Wait.MOVED : Wait.GONE;
    }

    /**
     * Leaves the line without waiting: one multi deletes the seat and ends the epoch (the line
     * node's version moves and its schedule is cleared), so the writers behind read the line and
     * open the next epoch instead of waiting for this writer's slot. If it does not get through,
     * the seat stays until the writers behind find it stalled, or its session ends.
     */
    void leave(Seat seat) {
        roundTrips.sendAndForget(
                h ->
                        Requests.multi(
                                h,
                                List.of(
                                        Op.delete(seat.path(), -1),
                                        Op.setData(seat.line(), new byte[0], -1))));
    }
}
