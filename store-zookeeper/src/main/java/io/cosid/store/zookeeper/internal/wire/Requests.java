package io.cosid.store.zookeeper.internal.wire;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.CreateOptions;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.ACL;
import org.jspecify.annotations.Nullable;

/**
 * The requests the store sends, each on the raw ZooKeeper handle as an asynchronous call whose
 * reply completes a future: never a failed future, an error is a reply code. {@link RoundTrips}
 * sends them.
 */
public final class Requests {

    private Requests() {}

    public static CompletableFuture<Reply> getData(ZooKeeper zk, String path) {
        CompletableFuture<Reply> f = new CompletableFuture<>();
        zk.getData(
                path,
                false,
                (rc, p, ctx, data, stat) -> f.complete(Reply.read(rc, p, data, stat)),
                null);
        return f;
    }

    public static CompletableFuture<Reply> setData(
            ZooKeeper zk, String path, byte[] data, int version) {
        CompletableFuture<Reply> f = new CompletableFuture<>();
        zk.setData(
                path,
                data,
                version,
                (rc, p, ctx, stat) -> f.complete(Reply.write(rc, p, stat)),
                null);
        return f;
    }

    /** A persistent node; the reply carries its Stat (create2). */
    public static CompletableFuture<Reply> create(
            ZooKeeper zk, String path, byte[] data, List<ACL> acl) {
        CompletableFuture<Reply> f = new CompletableFuture<>();
        zk.create(
                path,
                data,
                acl,
                CreateMode.PERSISTENT,
                (rc, p, ctx, name, stat) -> f.complete(Reply.write(rc, p, stat)),
                null);
        return f;
    }

    /**
     * Whether the node exists (NONODE if not); with a watcher, ZooKeeper calls it once when the
     * node is created, changed or deleted, or the connection changes.
     */
    static CompletableFuture<Reply> exists(ZooKeeper zk, String path, Watcher watcher) {
        CompletableFuture<Reply> f = new CompletableFuture<>();
        zk.exists(path, watcher, (rc, p, ctx, stat) -> f.complete(Reply.write(rc, p, stat)), null);
        return f;
    }

    /** Deletes the node at {@code version} (-1: any). */
    public static CompletableFuture<Reply> delete(ZooKeeper zk, String path, int version) {
        CompletableFuture<Reply> f = new CompletableFuture<>();
        zk.delete(path, version, (rc, p, ctx) -> f.complete(Reply.of(Code.get(rc), p)), null);
        return f;
    }

    public static CompletableFuture<Reply> getChildren(ZooKeeper zk, String path) {
        CompletableFuture<Reply> f = new CompletableFuture<>();
        zk.getChildren(
                path,
                false,
                (rc, p, ctx, children, stat) -> f.complete(Reply.listing(rc, p, stat, children)),
                null);
        return f;
    }

    /**
     * A multi; a failed one's reply names the path of the operation that failed (ZooKeeper's own
     * reply names no path), so that every refusal can say which node it was about.
     */
    public static CompletableFuture<Reply> multi(ZooKeeper zk, List<Op> ops) {
        CompletableFuture<Reply> f = new CompletableFuture<>();
        zk.multi(
                ops,
                (rc, p, ctx, results) ->
                        f.complete(Reply.multi(rc, failedPath(rc, ops, results), results)),
                null);
        return f;
    }

    /**
     * The path of the operation a failed multi failed on: the first whose result is an error other
     * than "rolled back because another failed"; for a successful or read-only multi, null.
     */
    static @Nullable String failedPath(int rc, List<Op> ops, @Nullable List<OpResult> results) {
        if (rc == Code.OK.intValue() || results == null || results.size() != ops.size()) {
            return null;
        }
        for (int i = 0; i < ops.size(); i++) {
            if (results.get(i) instanceof OpResult.ErrorResult e
                    && e.getErr() != Code.OK.intValue()
                    && e.getErr() != Code.RUNTIMEINCONSISTENCY.intValue()) {
                return ops.get(i).getPath();
            }
        }
        return null;
    }

    static CompletableFuture<Reply> getAcl(ZooKeeper zk, String path) {
        CompletableFuture<Reply> f = new CompletableFuture<>();
        zk.getACL(
                path,
                null,
                (rc, p, ctx, acl, stat) -> f.complete(Reply.acl(rc, p, stat, acl)),
                null);
        return f;
    }

    static CompletableFuture<Reply> setAcl(ZooKeeper zk, String path, List<ACL> acl) {
        CompletableFuture<Reply> f = new CompletableFuture<>();
        // any ACL version: this replaces an ACL the operator's check found too open, not a
        // compare-and-set of data
        zk.setACL(path, acl, -1, (rc, p, ctx, stat) -> f.complete(Reply.write(rc, p, stat)), null);
        return f;
    }

    /**
     * A create inside a multi that returns the new node's Stat (create2), so its mtime is known.
     */
    static Op createOp(String path, byte[] data, List<ACL> acl) {
        return Op.create(path, data, CreateOptions.newBuilder(acl, CreateMode.PERSISTENT).build());
    }

    /**
     * An ephemeral node named {@code prefix} plus a sequence number, inside a multi (its result
     * carries the name).
     */
    static Op createEphemeralSequentialOp(String prefix, List<ACL> acl) {
        return Op.create(prefix, new byte[0], acl, CreateMode.EPHEMERAL_SEQUENTIAL);
    }
}
