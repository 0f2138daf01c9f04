package io.cosid.store.zookeeper.internal;

import io.cosid.store.StoreCorruptedException;
import java.util.List;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.data.Stat;

/**
 * The compare-and-set of a node read at a data version. ZooKeeper's data version is an int that wraps after
 * 2^31 writes, and an expected version of -1 means "any version": a compare-and-set sent with -1 would be a
 * blind write (ZOOKEEPER-4743, not fixed in 3.8/3.9). So at version -1 the write first creates a claim node
 * named after the node and the data it replaces, in the same multi: a second writer that read the same state
 * fails on the claim, and a writer that read any other version fails on the version. The claim is the only
 * guard that may stand in for the version; every other write carries the version it read.
 */
final class ConditionalWrite {

    private ConditionalWrite() {
    }

    /** Whether this write must go through a multi (the wrap) instead of a plain setData. */
    static boolean needsClaim(int version) {
        return version == -1;
    }

    /**
     * After a write answered "no node": the parent whose absence made a create in it fail, or null when the
     * node a setData wrote is itself gone (deleted behind the store's back: a fresh read reports it). A caller
     * creates only parents that are its own bookkeeping, never a node whose data means something.
     *
     * @param reply the NONODE reply (of a multi, it names the operation that failed)
     * @param ops   the operations sent
     */
    static String missingParent(ZkCalls.Reply reply, List<Op> ops) {
        for (Op op : ops) {
            if (op.getPath().equals(reply.path())) {
                return op instanceof Op.Create ? NodePaths.parent(op.getPath()) : null;
            }
        }
        return null;
    }

    /**
     * Sends the write of a node read at version -1 with its claim, in one multi; the reply carries the written
     * node's Stat when it landed. A claim that stands for the node's current state is refused
     * ({@link #refuseStaleClaim}).
     *
     * @param location what the node is, for the message (e.g. "range key 'k' (/cosid/range/k)")
     */
    static ZkCalls.Reply sendAtWrap(ZkCalls zk, NodePaths paths, Deadline deadline, String path, byte[] current,
                                    byte[] data, String location) {
        List<Op> ops = ops(paths, path, -1, current, data);
        ZkCalls.Reply w = zk.once1(deadline, h -> ZkCalls.multi(h, ops));
        if (w.ok()) {
            Stat stat = ((OpResult.SetDataResult) w.results().get(w.results().size() - 1)).getStat();
            return new ZkCalls.Reply(w.rc(), path, null, stat, null, w.results());
        }
        refuseStaleClaim(zk, paths, deadline, w, ops, location);
        return w;
    }

    /**
     * After a write that failed because a claim node exists: if the claimed node still holds the very state the
     * claim was made for, the claim cannot come from a writer (claim and write land together, and the write
     * moves the version past -1). A restore left it, and every writer would fail on it for good, so it is
     * refused at once, naming the claim node and the repair, instead of being retried until the budget ends.
     * Any other failure returns: a writer came first.
     *
     * @param location what the write was about, for the message
     */
    static void refuseStaleClaim(ZkCalls zk, NodePaths paths, Deadline deadline, ZkCalls.Reply w, List<Op> ops,
                                 String location) {
        if (!w.is(Code.NODEEXISTS) || w.path() == null || !w.path().startsWith(paths.wrapRoot() + "/")) {
            return;
        }
        int claim = -1;
        for (int i = 0; i < ops.size() - 1; i++) {
            if (ops.get(i).getPath().equals(w.path())) {
                claim = i;
            }
        }
        if (claim < 0) {
            return;
        }
        String claimed = ops.get(claim + 1).getPath();
        ZkCalls.Reply now = zk.read1(deadline, h -> ZkCalls.getData(h, claimed));
        if (now.ok() && now.stat().getVersion() == -1 && paths.wrapClaim(claimed, now.data()).equals(w.path())) {
            throw new StoreCorruptedException(location, "the claim node " + w.path() + " of " + claimed
                    + " exists although that node still holds the state the claim was made for, so no write can"
                    + " pass it: a restore left it (repair: delete " + w.path() + " once no store writes " + claimed
                    + ")");
        }
    }

    /** The operations that replace {@code current} (read at {@code version}) with {@code data}. */
    static List<Op> ops(NodePaths paths, String path, int version, byte[] current, byte[] data) {
        if (!needsClaim(version)) {
            return List.of(Op.setData(path, data, version));
        }
        return List.of(ZkCalls.createOp(paths.wrapClaim(path, current), new byte[0], paths.acl()), Op.setData(path, data, -1));
    }
}
