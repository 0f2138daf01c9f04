package io.cosid.store.zookeeper.internal.slots;

import io.cosid.store.Namespace;
import io.cosid.store.NamespaceNotFoundException;
import io.cosid.store.StoreCorruptedException;
import io.cosid.store.StoreException;
import io.cosid.store.spi.Deadline;
import io.cosid.store.zookeeper.internal.slots.StampedReads.Stamped;
import io.cosid.store.zookeeper.internal.wire.ConditionalWrite;
import io.cosid.store.zookeeper.internal.wire.Failures;
import io.cosid.store.zookeeper.internal.wire.NodeChange;
import io.cosid.store.zookeeper.internal.wire.NodePaths;
import io.cosid.store.zookeeper.internal.wire.ParentAcls;
import io.cosid.store.zookeeper.internal.wire.PathCreator;
import io.cosid.store.zookeeper.internal.wire.Reads;
import io.cosid.store.zookeeper.internal.wire.Reply;
import io.cosid.store.zookeeper.internal.wire.Requests;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.List;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.Op;

/**
 * The first round trip of an acquire, an advance or an inspect: a stamp write whose mtime is "now",
 * and the reads pipelined behind it, which see everything up to it.
 */
@Singleton
final class StampedReads {

    /**
     * What the first round trip of an acquire, advance or inspect learns: now and the ticket (the
     * clock write's mtime and version), the namespace with the number of its slot nodes, and the
     * replies to the further requests.
     */
    record Stamped(long now, int ticket, Namespace namespace, int slotNodes, List<Reply> replies) {

        /** The reply to the first further request. */
        Reply second() {
            return replies.get(0);
        }
    }

    private final Reads reads;
    private final ConditionalWrite conditionalWrite;
    private final PathCreator pathCreator;
    private final Failures failures;
    private final NodePaths paths;
    private final ParentAcls parentAcls;
    private final Namespaces namespaces;

    @Inject
    StampedReads(
            Reads reads,
            ConditionalWrite conditionalWrite,
            PathCreator pathCreator,
            Failures failures,
            NodePaths paths,
            ParentAcls parentAcls,
            Namespaces namespaces) {
        this.reads = reads;
        this.conditionalWrite = conditionalWrite;
        this.pathCreator = pathCreator;
        this.failures = failures;
        this.paths = paths;
        this.parentAcls = parentAcls;
        this.namespaces = namespaces;
    }

    /**
     * Round trip 1: a write of {@code stamp} first (its mtime is "now"; on one session it is also
     * the barrier that the reads behind it see everything up to it), then one read-only multi of
     * the namespace and the further reads (acquire: the owner index, the landing hint and the first
     * batch of slots; inspect: the namespace's children; advance: the slot): two requests. Only the
     * first further reply is checked here: a missing node is an answer, any other error a failure.
     *
     * <p>An acquire stamps the namespace's {@code .clock}, whose version is then the attempt's
     * ticket; inspect and advance stamp the parent of the owner indexes instead (clearing the
     * landing hint it holds), so that the clock's versions count acquire attempts only
     * (store-zookeeper/README.md, "Choice order under concurrency").
     */
    Stamped send(Deadline deadline, String ns, String stamp, List<Op> further) {
        parentAcls.checkNamespace(deadline, ns);
        String nsPath = paths.namespace(ns);
        List<Op> readOps = new ArrayList<>();
        readOps.add(Op.getData(nsPath));
        readOps.addAll(further);
        List<Reply> sent =
                reads.all(
                        deadline,
                        h ->
                                List.of(
                                        // not a compare-and-set: only its mtime and version matter
                                        Requests.setData(h, stamp, new byte[0], -1),
                                        Requests.multi(h, readOps)));
        Reply clockReply = sent.get(0);
        List<Reply> replies = perOperation(deadline, readOps, sent.get(1));
        Reply nsReply = replies.get(0);
        if (nsReply.is(Code.NONODE)) {
            throw new NamespaceNotFoundException(ns);
        }
        if (!nsReply.ok()) {
            throw failures.unexpected(deadline, nsReply);
        }
        Namespace namespace;
        try {
            namespace = namespaces.known(NamespaceCodec.decode(ns, nsPath, nsReply.data()));
        } catch (StoreCorruptedException e) {
            // an acquire's clock write gave it a ticket: the refused attempt finishes it
            throw clockReply.ok() && stamp.equals(paths.clock(ns))
                    ? finished(deadline, ns, clockReply.stat().getVersion(), e)
                    : e;
        }
        if (clockReply.is(Code.NONODE) && stamp.equals(paths.owners(ns))) {
            // the parent of the owner indexes is the store's own bookkeeping: created, not refused
            pathCreator.ensure(deadline, stamp);
            return send(deadline, ns, stamp, further);
        }
        if (clockReply.is(Code.NONODE)) {
            throw clockMissing(ns, nsPath, stamp);
        }
        if (!clockReply.ok()) {
            throw failures.unexpected(deadline, clockReply);
        }
        List<Reply> rest = replies.subList(1, replies.size());
        Reply second = rest.get(0);
        if (!second.ok() && !second.is(Code.NONODE)) {
            throw failures.unexpected(deadline, second);
        }
        return new Stamped(
                clockReply.stat().getMtime(),
                clockReply.stat().getVersion(),
                namespace,
                // its children: the slot nodes and the clock
                Math.max(0, nsReply.stat().getNumChildren() - 1),
                List.copyOf(rest));
    }

    private static StoreCorruptedException clockMissing(String ns, String nsPath, String clock) {
        return new StoreCorruptedException(
                "namespace '" + ns + "' (" + nsPath + ")",
                "its clock node "
                        + clock
                        + " is missing (repair: define the namespace again with its limit and"
                        + " tolerance, which creates the clock node; nothing else changes)");
    }

    /**
     * The replies of a read-only multi, operation by operation. Its overall code is the first
     * operation's error (a missing node), so only the absence of per-operation results is a
     * failure.
     */
    private List<Reply> perOperation(Deadline deadline, List<Op> readOps, Reply multi) {
        if (multi.results() == null || multi.results().size() != readOps.size()) {
            throw failures.unexpected(deadline, multi);
        }
        List<Reply> replies = new ArrayList<>();
        for (int i = 0; i < readOps.size(); i++) {
            replies.add(Reply.ofRead(readOps.get(i).getPath(), multi.results().get(i)));
        }
        return replies;
    }

    /**
     * An acquire attempt refused after its clock write (no free slot, or corrupt data read)
     * finished too: its ticket goes into the landing hint, so that the next acquire does not count
     * it as one still under way and takes the lowest free slot. One request, on an exceptional
     * path; its outcome does not change the answer (a hint carries no safety): a failure of it is
     * attached to {@code refusal} as suppressed.
     *
     * @return {@code refusal}, for the caller to throw
     */
    StoreException finished(Deadline deadline, String ns, int ticket, StoreException refusal) {
        if (!deadline.hasTimeLeft()) {
            return refusal;
        }
        try {
            conditionalWrite.send(
                    deadline,
                    "the landing hint of namespace '" + ns + "' (" + paths.owners(ns) + ")",
                    NodeChange.hint(paths.owners(ns), HerdSpread.hint(ticket)));
        } catch (StoreException e) {
            refusal.addSuppressed(e);
        }
        return refusal;
    }
}
