package io.cosid.store.zookeeper.internal;

import java.util.List;
import org.apache.zookeeper.Op;

/**
 * One node's part in a conditional write: a node created where none was read, or the node's data
 * replaced from the state read at a data version.
 *
 * <p>ZooKeeper's data version is an int that wraps after 2^31 writes, and an expected version of -1
 * means "any version": a compare-and-set sent with -1 would be a blind write (ZOOKEEPER-4743, not
 * fixed in 3.8/3.9). So a replace from version -1 first creates a claim node named after the node
 * and the data it replaces, in the same multi: a second writer that read the same state fails on
 * the claim, and a writer that read any other version fails on the version. The claim is the only
 * guard that may stand in for the version; every other replace carries the version it read.
 *
 * @param path the node
 * @param create whether the node is created (it was read as absent)
 * @param version the data version read (replace only)
 * @param current the data read at that version (replace only: it names the claim at the wrap)
 * @param data the data to write
 */
record NodeChange(String path, boolean create, int version, byte[] current, byte[] data) {

    /** Creates a node read as absent. */
    static NodeChange create(String path, byte[] data) {
        return new NodeChange(path, true, 0, null, data);
    }

    /** Replaces the data read at {@code version}. */
    static NodeChange replace(String path, int version, byte[] current, byte[] data) {
        return new NodeChange(path, false, version, current, data);
    }

    /**
     * Whether this replace must claim the state it read: at version -1, which ZooKeeper takes as
     * "any".
     */
    boolean needsClaim() {
        return !create && version == -1;
    }

    /** The claim node of a replace at the wrap. */
    String claim(NodePaths paths) {
        return paths.wrapClaim(path, current);
    }

    /** The operations of this change inside a multi; the node's own operation is the last. */
    List<Op> ops(NodePaths paths) {
        if (create) {
            return List.of(Requests.createOp(path, data, paths.acl()));
        }
        if (!needsClaim()) {
            return List.of(Op.setData(path, data, version));
        }
        return List.of(
                Requests.createOp(claim(paths), new byte[0], paths.acl()),
                Op.setData(path, data, -1));
    }
}
