package io.cosid.store.zookeeper.internal;

import java.util.List;
import org.apache.zookeeper.Op;

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

    /** The operations that replace {@code current} (read at {@code version}) with {@code data}. */
    static List<Op> ops(NodePaths paths, String path, int version, byte[] current, byte[] data) {
        if (!needsClaim(version)) {
            return List.of(Op.setData(path, data, version));
        }
        return List.of(ZkCalls.createOp(paths.wrapClaim(path, current), new byte[0], paths.acl()), Op.setData(path, data, -1));
    }
}
