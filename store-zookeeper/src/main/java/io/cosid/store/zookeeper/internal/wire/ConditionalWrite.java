package io.cosid.store.zookeeper.internal.wire;

import io.cosid.store.StoreCorruptedException;
import io.cosid.store.StoreObserver.FailedWriteEvent.Reason;
import io.cosid.store.StoreTimeoutException;
import io.cosid.store.StoreUnavailableException;
import io.cosid.store.spi.Deadline;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.data.Stat;

/**
 * The one place that sends a conditional write and turns its reply into a {@link WriteOutcome}, as
 * Curator's {@code DistributedAtomicValue.tryOnce} does. One change that is a plain create or
 * compare-and-set goes as a single request; several changes, or a replace at the version wrap
 * ({@link NodeChange}), go as one multi. A write is sent once, except by {@link
 * #sendUntilAnswered}: what to do after an unknown outcome is the caller's to decide.
 */
@Singleton
public final class ConditionalWrite {

    private final RoundTrips roundTrips;
    private final Reads reads;
    private final Failures failures;
    private final NodePaths paths;
    private final ConnectionRetry retry;
    private final Observations observations;

    @Inject
    ConditionalWrite(
            RoundTrips roundTrips,
            Reads reads,
            Failures failures,
            NodePaths paths,
            ConnectionRetry retry,
            Observations observations) {
        this.observations = observations;
        this.roundTrips = roundTrips;
        this.reads = reads;
        this.failures = failures;
        this.paths = paths;
        this.retry = retry;
    }

    /**
     * Sends the changes like {@link #send(Deadline, String, NodeChange...)} and, when the reply is
     * lost, sends the very same request again once connected, until one gets an answer or the
     * budget or the retries end.
     *
     * <p>Why this cannot land twice: at least one change creates a node or replaces one at the
     * version read, so the first send and every copy expect the same state, and once one of them
     * has landed the others fail. A copy that lands therefore proves that none before it did: the
     * outcome is known after all, and nothing was skipped. A copy that fails proves only that
     * something wrote first, perhaps the first send: the outcome stays {@link
     * WriteOutcome.Kind#UNKNOWN}. Changes that could land twice (only checks and hints) are sent
     * once.
     *
     * @param beforeCopy run before each copy is sent
     * @throws io.cosid.store.StoreTimeoutException when the budget ends before an answer
     * @throws io.cosid.store.StoreUnavailableException when the connection is lost more often than
     *     {@code retry.maxRetries} allows
     */
    public WriteOutcome sendUntilAnswered(
            Deadline deadline, String location, List<NodeChange> changes, Runnable beforeCopy) {
        WriteOutcome outcome = sendOnce(deadline, location, List.of(), changes);
        if (outcome.kind() != WriteOutcome.Kind.UNKNOWN
                || changes.stream().noneMatch(NodeChange::landsOnce)) {
            return reported(deadline, outcome);
        }
        Reply lost = Reply.of(Code.CONNECTIONLOSS, changes.get(0).path());
        for (int attempt = 0; ; attempt++) {
            WriteOutcome again;
            try {
                retry.awaitReconnect(deadline, attempt, lost);
                beforeCopy.run();
                again = sendOnce(deadline, location, List.of(), changes);
            } catch (StoreTimeoutException | StoreUnavailableException e) {
                // out of time or retries with no copy answered: the outcome stays unknown
                observations.failedWrite(deadline, Reason.OUTCOME_UNKNOWN);
                throw e;
            }
            if (again.landed()) {
                return again;
            }
            if (again.kind() != WriteOutcome.Kind.UNKNOWN) {
                return reported(deadline, WriteOutcome.of(WriteOutcome.Kind.UNKNOWN));
            }
        }
    }

    /** Reports a write that did not land to the store's observer ({@link Observations}). */
    private WriteOutcome reported(Deadline deadline, WriteOutcome outcome) {
        switch (outcome.kind()) {
            case LOST_RACE -> observations.failedWrite(deadline, Reason.LOST_RACE);
            case UNKNOWN -> observations.failedWrite(deadline, Reason.OUTCOME_UNKNOWN);
            case LANDED, PARENT_MISSING, NODE_GONE, NOT_ALLOWED -> {
                // landed, or a node to create or read first: not a race and not a gap
            }
        }
        return outcome;
    }

    /**
     * Sends the changes in one transaction.
     *
     * @param location what is written, for messages (e.g. "range key 'k' (/cosid/range/k)")
     */
    public WriteOutcome send(Deadline deadline, String location, NodeChange... changes) {
        return reported(deadline, sendOnce(deadline, location, List.of(), List.of(changes)));
    }

    /**
     * Sends one change with a read of its node pipelined behind it: a lost race then already knows
     * the winner's state ({@link WriteOutcome#behind()}), at no extra round trip.
     */
    WriteOutcome sendWithReadBehind(Deadline deadline, String location, NodeChange change) {
        return reported(
                deadline,
                sendOnce(deadline, location, List.of(Op.getData(change.path())), List.of(change)));
    }

    private WriteOutcome sendOnce(
            Deadline deadline, String location, List<Op> readBehind, List<NodeChange> changes) {
        List<Op> ops = new ArrayList<>();
        changes.forEach(c -> ops.addAll(c.ops(paths)));
        NodeChange only = changes.size() == 1 ? changes.get(0) : null;
        boolean plainReplace =
                only != null && only.kind() == NodeChange.Kind.REPLACE && !only.needsClaim();
        Reply reply;
        List<Reply> behind = List.of();
        if (only != null && only.create()) {
            reply =
                    roundTrips.sendOne(
                            deadline,
                            h -> Requests.create(h, only.path(), only.written(), paths.acl()));
        } else if (!readBehind.isEmpty() && changes.stream().noneMatch(NodeChange::needsClaim)) {
            List<Reply> replies =
                    roundTrips.send(
                            deadline,
                            h ->
                                    List.of(
                                            plainReplace && only != null
                                                    ? Requests.setData(
                                                            h,
                                                            only.path(),
                                                            only.written(),
                                                            only.version())
                                                    : Requests.multi(h, ops),
                                            readBehind.size() == 1
                                                    ? Requests.getData(
                                                            h, readBehind.get(0).getPath())
                                                    : Requests.multi(h, readBehind)));
            reply = replies.get(0);
            behind = readsBehind(readBehind, replies.get(1));
        } else if (plainReplace && only != null) {
            reply = roundTrips.setDataNow(deadline, only.path(), only.written(), only.version());
        } else {
            reply = roundTrips.multiNow(deadline, ops);
        }
        return outcome(deadline, location, changes, ops, reply, behind);
    }

    /**
     * The reads behind a write, one reply per read: for a single getData its reply (null unless it
     * read the node), else each operation of the read-only multi, as read or with its error (empty
     * when the multi got no answer), so that every read costs the server one request.
     */
    private static List<Reply> readsBehind(List<Op> reads, Reply read) {
        if (reads.size() == 1) {
            return Collections.singletonList(read.ok() ? read : null);
        }
        List<OpResult> results = read.results();
        if (!read.ok() || results == null || results.size() != reads.size()) {
            return List.of();
        }
        List<Reply> replies = new ArrayList<>(reads.size());
        for (int i = 0; i < reads.size(); i++) {
            replies.add(Reply.ofRead(reads.get(i).getPath(), results.get(i)));
        }
        return Collections.unmodifiableList(replies);
    }

    private WriteOutcome outcome(
            Deadline deadline,
            String location,
            List<NodeChange> changes,
            List<Op> ops,
            Reply reply,
            List<Reply> behind) {
        if (reply.ok()) {
            return WriteOutcome.landed(stats(changes, reply));
        }
        if (reply.is(Code.BADVERSION) || reply.is(Code.NODEEXISTS)) {
            refuseStaleClaim(deadline, location, changes, reply);
            return WriteOutcome.lostRace(behind, reply.path());
        }
        if (reply.connectionProblem()) {
            return WriteOutcome.of(WriteOutcome.Kind.UNKNOWN);
        }
        if (reply.is(Code.NOAUTH)
                && reply.path() != null
                && reply.path().startsWith(paths.lineRoot() + "/")) {
            return WriteOutcome.notAllowed(reply.path());
        }
        if (reply.is(Code.NONODE)) {
            for (NodeChange change : changes) {
                if (change.guards() && change.path().equals(reply.path())) {
                    return WriteOutcome.lostRace(behind, reply.path()); // the guard is gone
                }
            }
            for (NodeChange change : changes) {
                if (change.kind() == NodeChange.Kind.HINT && change.path().equals(reply.path())) {
                    // a bookkeeping node is missing: the caller creates it like a missing parent
                    return WriteOutcome.parentMissing(change.path());
                }
            }
            for (Op op : ops) {
                String parent = NodePaths.parent(op.getPath());
                if (op.getPath().equals(reply.path())
                        && op instanceof Op.Create
                        && parent != null) {
                    return WriteOutcome.parentMissing(parent);
                }
            }
            return WriteOutcome.of(WriteOutcome.Kind.NODE_GONE);
        }
        throw failures.unexpected(deadline, reply);
    }

    /** Per change, the Stat of its node's own operation (the last of its operations). */
    private static List<Stat> stats(List<NodeChange> changes, Reply reply) {
        if (reply.results() == null) {
            return Collections.singletonList(reply.stat()); // a single request
        }
        List<Stat> stats = new ArrayList<>();
        int op = -1;
        for (NodeChange change : changes) {
            op += change.needsClaim() ? 2 : 1;
            OpResult result = reply.results().get(op);
            stats.add(
                    result instanceof OpResult.SetDataResult s
                            ? s.getStat()
                            : result instanceof OpResult.CreateResult c ? c.getStat() : null);
        }
        return Collections.unmodifiableList(stats);
    }

    /**
     * After a write that failed because a claim node exists: if the claimed node still holds the
     * very state the claim was made for, the claim cannot come from a writer (claim and write land
     * together, and the write moves the version past -1). A restore left it, and every writer would
     * fail on it for good, so it is refused at once, naming the claim node and the repair, instead
     * of being retried until the budget ends. Any other failure returns: a writer came first.
     */
    private void refuseStaleClaim(
            Deadline deadline, String location, List<NodeChange> changes, Reply failed) {
        for (NodeChange change : changes) {
            if (!change.needsClaim() || !change.claim(paths).equals(failed.path())) {
                continue;
            }
            Reply now = reads.one(deadline, h -> Requests.getData(h, change.path()));
            if (now.ok()
                    && now.stat().getVersion() == -1
                    && paths.wrapClaim(change.path(), now.data()).equals(failed.path())) {
                throw new StoreCorruptedException(
                        location,
                        "the claim node "
                                + failed.path()
                                + " of "
                                + change.path()
                                + " exists although that node still holds the state the claim was"
                                + " made for, so no write can pass it: a restore left it (repair:"
                                + " delete "
                                + failed.path()
                                + " once no store writes "
                                + change.path()
                                + ")");
            }
        }
    }
}
