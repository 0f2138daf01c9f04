package io.cosid.store.zookeeper.internal.wire;

import java.util.List;
import java.util.Objects;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.Op;
import org.jspecify.annotations.Nullable;

/**
 * One node's part in a conditional write: a node created where none was read, the node's data
 * replaced from the state read at a data version, or a node deleted.
 *
 * <p>ZooKeeper's data version is an int that wraps after 2^31 writes, and an expected version of -1
 * means "any version": a compare-and-set sent with -1 would be a blind write (ZOOKEEPER-4743, not
 * fixed in 3.8/3.9). So a replace from version -1 first creates a claim node named after the node
 * and the data it replaces, in the same multi: a second writer that read the same state fails on
 * the claim, and a writer that read any other version fails on the version. The claim is the only
 * guard that may stand in for the version; every other replace carries the version it read.
 *
 * <p>A check ({@link #check}) changes nothing: it makes the write fail unless a guard node is still
 * at the version read, so that a write can depend on a node it does not change. A delete fails the
 * write unless the node exists (at the version given; -1: any), so it is a guard too. A hint
 * ({@link #hint}) overwrites advisory data at any version.
 *
 * @param kind what the change does
 * @param path the node
 * @param version the data version read (replace, check and delete)
 * @param current the data read at that version (replace only: it names the claim at the wrap)
 * @param data the data to write (create and replace)
 */
public record NodeChange(
        Kind kind, String path, int version, byte @Nullable [] current, byte @Nullable [] data) {

    /** What a change does. */
    public enum Kind {
        CREATE,
        REPLACE,
        CHECK,
        DELETE,
        HINT,
        EPHEMERAL
    }

    /** The data to write (create, replace, ephemeral and hint changes). */
    byte[] written() {
        if (data == null) {
            throw new IllegalStateException("a " + kind + " of " + path + " writes no data");
        }
        return data;
    }

    /** Creates a node read as absent. */
    public static NodeChange create(String path, byte[] data) {
        return new NodeChange(Kind.CREATE, path, 0, null, data);
    }

    /** Replaces the data read at {@code version}. */
    public static NodeChange replace(String path, int version, byte[] current, byte[] data) {
        return new NodeChange(Kind.REPLACE, path, version, current, data);
    }

    /**
     * Writes nothing, but fails the write unless the node is still at {@code version} (-1: the node
     * exists, whatever its version).
     */
    public static NodeChange check(String path, int version) {
        return new NodeChange(Kind.CHECK, path, version, null, null);
    }

    /**
     * Creates an ephemeral node of this session, failing the write if it exists (a seat's result,
     * the range room's {@code Seats}).
     */
    public static NodeChange ephemeral(String path, byte[] data) {
        return new NodeChange(Kind.EPHEMERAL, path, 0, null, data);
    }

    /** Deletes the node, failing the write unless it exists at {@code version} (-1: any). */
    public static NodeChange delete(String path, int version) {
        return new NodeChange(Kind.DELETE, path, version, null, null);
    }

    /**
     * Overwrites the data of a bookkeeping node whatever its version: advisory data that no
     * decision of safety reads (the landing hint of a namespace, store-zookeeper/README.md). It is
     * the one change sent at version -1 without a claim, on purpose: it never fails a write on a
     * race, and a lost or tampered value only moves a slot choice among the free slots.
     */
    public static NodeChange hint(String path, byte[] data) {
        return new NodeChange(Kind.HINT, path, -1, null, data);
    }

    /** Whether this creates a node that was read as absent. */
    public boolean create() {
        return kind == Kind.CREATE;
    }

    /**
     * Whether the write can land only once: a create fails once the node exists, a replace once the
     * version (or, at the wrap, the claim) moved on. A check, a delete at any version or a hint
     * alone could land again.
     */
    boolean landsOnce() {
        return kind == Kind.CREATE || kind == Kind.REPLACE;
    }

    /** Whether a missing node fails the write as a lost race (a guard that is gone). */
    boolean guards() {
        return kind == Kind.CHECK || kind == Kind.DELETE;
    }

    /**
     * Whether this replace must claim the state it read: at version -1, which ZooKeeper takes as
     * "any".
     */
    boolean needsClaim() {
        return kind == Kind.REPLACE && version == -1;
    }

    /** The claim node of a replace at the wrap. */
    String claim(NodePaths paths) {
        return paths.wrapClaim(path, Objects.requireNonNull(current));
    }

    /** The operations of this change inside a multi; the node's own operation is the last. */
    List<Op> ops(NodePaths paths) {
        return switch (kind) {
            case CHECK -> List.of(Op.check(path, version));
            case DELETE -> List.of(Op.delete(path, version));
            case HINT -> List.of(Op.setData(path, Objects.requireNonNull(data), -1));
            case CREATE ->
                    List.of(Requests.createOp(path, Objects.requireNonNull(data), paths.acl()));
            case EPHEMERAL ->
                    List.of(
                            Op.create(
                                    path,
                                    Objects.requireNonNull(data),
                                    paths.acl(),
                                    CreateMode.EPHEMERAL));
            case REPLACE ->
                    needsClaim()
                            ? List.of(
                                    Requests.createOp(claim(paths), new byte[0], paths.acl()),
                                    Op.setData(path, Objects.requireNonNull(data), -1))
                            : List.of(Op.setData(path, Objects.requireNonNull(data), version));
        };
    }
}
