package io.cosid.store.zookeeper.internal;

import java.util.List;
import java.util.Objects;
import org.apache.zookeeper.Op;
import org.jspecify.annotations.Nullable;

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
 * <p>A check ({@link #check}) changes nothing: it makes the write fail unless a guard node is still
 * at the version read, so that a write can depend on a node it does not change.
 *
 * @param path the node
 * @param create whether the node is created (it was read as absent)
 * @param version the data version read (replace only)
 * @param current the data read at that version (replace only: it names the claim at the wrap)
 * @param data the data to write
 */
record NodeChange(
        String path,
        boolean create,
        int version,
        byte @Nullable [] current,
        byte @Nullable [] data) {

    /** Creates a node read as absent. */
    static NodeChange create(String path, byte[] data) {
        return new NodeChange(path, true, 0, null, data);
    }

    /** Replaces the data read at {@code version}. */
    static NodeChange replace(String path, int version, byte[] current, byte[] data) {
        return new NodeChange(path, false, version, current, data);
    }

    /**
     * Writes nothing, but fails the write unless the node is still at {@code version} (-1: the node
     * exists, whatever its version).
     */
    static NodeChange check(String path, int version) {
        return new NodeChange(path, false, version, null, null);
    }

    /** Whether this is a check that changes nothing. */
    boolean isCheck() {
        return !create && data == null;
    }

    /**
     * Whether this replace must claim the state it read: at version -1, which ZooKeeper takes as
     * "any".
     */
    boolean needsClaim() {
        return !create && data != null && version == -1;
    }

    /** The claim node of a replace at the wrap. */
    String claim(NodePaths paths) {
        return paths.wrapClaim(path, Objects.requireNonNull(current));
    }

    /** The operations of this change inside a multi; the node's own operation is the last. */
    List<Op> ops(NodePaths paths) {
        if (isCheck()) {
            return List.of(Op.check(path, version));
        }
        byte[] written = Objects.requireNonNull(data);
        if (create) {
            return List.of(Requests.createOp(path, written, paths.acl()));
        }
        if (!needsClaim()) {
            return List.of(Op.setData(path, written, version));
        }
        return List.of(
                Requests.createOp(claim(paths), new byte[0], paths.acl()),
                Op.setData(path, written, -1));
    }
}
