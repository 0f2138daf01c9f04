package io.cosid.store.zookeeper.internal;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;

/**
 * The line that the writers of a contended range key join, so that each of them is served within
 * its budget however fast the others are or however the machine schedules them (docs/contract.md,
 * "Liveness under contention").
 *
 * <p>Why a line: compare-and-set alone is not fair. The writer whose write just landed learns the
 * new version first and wins again; backoff that grows with each loss makes the longest waiter the
 * least likely to try; on a machine whose CPUs are saturated, who runs next is the scheduler's
 * choice. A writer that lost twice therefore joins the key's line: an ephemeral sequential node
 * under {@code {root}/.line/{digest}} ({@link NodePaths#line}). Joining also bumps the line node's
 * data version in the same transaction, and every writer outside the line sends its write with a
 * check of the line version it last saw. So once a writer has joined, no writer outside the line
 * can land a write before it has seen the line (its check fails, and the read behind it shows the
 * line); it joins at the back instead. In the line, only the first writer writes, and each waits
 * for the node ahead of it to go (a watch, not a poll).
 *
 * <p>The line only orders writers; the compare-and-set on the key's version alone keeps values
 * unique. So a line node whose writer is paused or gone (its session still alive) is removed by the
 * writers behind it once the key has not moved for a while: the cost of a wrong guess is one race,
 * never a duplicate.
 */
@Singleton
final class WriterLine {

    /** How a writer's node is named: a unique id (to find it after a lost reply), then a number. */
    private static final String PREFIX = "w-";

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

    /** A writer's node in a line. */
    record Place(String line, String name) {
        String path() {
            return line + "/" + name;
        }
    }

    /** A line as read: its writers in order, first first. */
    record Order(List<String> names) {

        boolean first(Place place) {
            return !names.isEmpty() && names.get(0).equals(place.name());
        }

        boolean holds(Place place) {
            return names.contains(place.name());
        }

        /** The writer just ahead of {@code place}; null when it is first or not in line. */
        String ahead(Place place) {
            int i = names.indexOf(place.name());
            return i > 0 ? names.get(i - 1) : null;
        }

        String head() {
            return names.isEmpty() ? null : names.get(0);
        }
    }

    /**
     * Joins the line at its back: one transaction that creates this writer's node and bumps the
     * line's version, so that every writer outside the line fails its next check and sees it.
     * Creates the line first when it is missing. A lost reply is settled by looking for the node's
     * unique id.
     */
    Place join(Deadline deadline, String line) {
        String id = UUID.randomUUID().toString();
        String prefix = line + "/" + PREFIX + id + "-";
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
                String created = ((OpResult.CreateResult) r.results().get(0)).getPath();
                return new Place(line, created.substring(line.length() + 1));
            }
            if (r.is(Code.NONODE)) {
                pathCreator.ensure(deadline, line);
            } else if (r.connectionProblem()) {
                Reply children = reads.one(deadline, h -> Requests.getChildren(h, line));
                if (children.ok()) {
                    for (String name : children.children()) {
                        if (name.startsWith(PREFIX + id + "-")) {
                            return new Place(line, name);
                        }
                    }
                }
            } else {
                throw failures.unexpected(deadline, r);
            }
        }
        throw deadline.expired(null);
    }

    /** The line's writers in the order they joined, from a listing of the line node. */
    static Order order(Reply children) {
        if (!children.ok()) {
            return new Order(List.of());
        }
        List<String> names = new ArrayList<>();
        for (String name : children.children()) {
            if (name.startsWith(PREFIX)) {
                names.add(name);
            }
        }
        names.sort(Comparator.comparingLong(WriterLine::sequence));
        return new Order(List.copyOf(names));
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
     * Waits until the node {@code ahead} is gone or {@code maxNanos} pass, whichever is first.
     *
     * @return whether something happened to it (deleted or changed) before the wait ran out
     */
    boolean awaitGone(Deadline deadline, String ahead, long maxNanos) {
        CompletableFuture<Void> fired = new CompletableFuture<>();
        Reply r =
                roundTrips.sendOne(
                        deadline, h -> Requests.exists(h, ahead, e -> fired.complete(null)));
        if (!r.ok()) {
            return true; // already gone, or a connection problem: look again
        }
        long wait = Math.min(maxNanos, deadline.remainingNanos());
        if (wait <= 0) {
            return false;
        }
        try {
            fired.get(wait, TimeUnit.NANOSECONDS);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (InterruptedException e) {
            throw deadline.interrupted(e);
        } catch (ExecutionException e) {
            return true;
        }
    }

    /**
     * Removes a node from the line without waiting: this writer's own once it is served or gives
     * up, or a stalled first writer's. Whoever waits behind it checks for it anyway.
     */
    void remove(String path) {
        roundTrips.sendAndForget(h -> Requests.delete(h, path, -1));
    }
}
