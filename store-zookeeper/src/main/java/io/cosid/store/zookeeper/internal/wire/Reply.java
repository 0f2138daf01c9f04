package io.cosid.store.zookeeper.internal.wire;

import java.util.List;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

/**
 * One reply from ZooKeeper: the result code and whatever the request returns. What a request does
 * not return is absent, and asking for it is a programming error ({@link IllegalStateException}),
 * not a null to pass on: a read's data is never absent (a node written with no data reads as
 * empty), a listing always has its children, a multi that was answered has its results.
 */
public final class Reply {

    private static final byte[] NO_DATA = new byte[0];

    private final int rc;
    private final String path;
    private final byte @Nullable [] data;
    private final @Nullable Stat stat;
    private final @Nullable List<String> children;
    private final @Nullable List<OpResult> results;
    private final @Nullable List<ACL> acl;

    private Reply(
            int rc,
            @Nullable String path,
            byte @Nullable [] data,
            @Nullable Stat stat,
            @Nullable List<String> children,
            @Nullable List<OpResult> results,
            @Nullable List<ACL> acl) {
        this.rc = rc;
        this.path = path == null ? "" : path;
        this.data = data;
        this.stat = stat;
        this.children = children;
        this.results = results;
        this.acl = acl;
    }

    /** A reply with nothing but a code and a path. */
    static Reply of(Code code, @Nullable String path) {
        return new Reply(code.intValue(), path, null, null, null, null, null);
    }

    /** A read's reply: on success the node's data (empty when it has none) and Stat. */
    static Reply read(int rc, @Nullable String path, byte @Nullable [] data, @Nullable Stat stat) {
        byte[] read = rc == Code.OK.intValue() && data == null ? NO_DATA : data;
        return new Reply(rc, path, read, stat, null, null, null);
    }

    /** A write's reply: on success the node's Stat, when the request returns one. */
    static Reply write(int rc, @Nullable String path, @Nullable Stat stat) {
        return new Reply(rc, path, null, stat, null, null, null);
    }

    /** A listing's reply. */
    static Reply listing(
            int rc, @Nullable String path, @Nullable Stat stat, @Nullable List<String> children) {
        return new Reply(rc, path, null, stat, children, null, null);
    }

    /** A multi's reply: its per-operation results, when the server answered it. */
    static Reply multi(int rc, @Nullable String path, @Nullable List<OpResult> results) {
        return new Reply(rc, path, null, null, null, results, null);
    }

    /** An ACL read's reply. */
    static Reply acl(int rc, @Nullable String path, @Nullable Stat stat, @Nullable List<ACL> acl) {
        return new Reply(rc, path, null, stat, null, null, acl);
    }

    /** One read of a read-only multi as a reply: a node's data or children, or the error it got. */
    public static Reply ofRead(String path, OpResult result) {
        if (result instanceof OpResult.GetDataResult g) {
            return read(Code.OK.intValue(), path, g.getData(), g.getStat());
        }
        if (result instanceof OpResult.GetChildrenResult c) {
            return listing(Code.OK.intValue(), path, null, c.getChildren());
        }
        return of(Code.get(((OpResult.ErrorResult) result).getErr()), path);
    }

    /** The result code as an int. */
    public int rc() {
        return rc;
    }

    /** The node the reply is about; for a failed multi, the operation that failed ("" if none). */
    public String path() {
        return path;
    }

    /** A read's data. */
    public byte[] data() {
        return present(data, "data");
    }

    /** The node's Stat. */
    public Stat stat() {
        return present(stat, "Stat");
    }

    /** A listing's child names. */
    public List<String> children() {
        return present(children, "children");
    }

    /** A multi's per-operation results; null when the server did not answer with them. */
    public @Nullable List<OpResult> results() {
        return results;
    }

    /** An ACL read's entries. */
    public List<ACL> acl() {
        return present(acl, "ACL");
    }

    private <T> T present(@Nullable T part, String what) {
        if (part == null) {
            throw new IllegalStateException(
                    "the reply for " + path + " (" + code() + ") carries no " + what);
        }
        return part;
    }

    public Code code() {
        return Code.get(rc);
    }

    public boolean ok() {
        return rc == Code.OK.intValue();
    }

    public boolean is(Code c) {
        return rc == c.intValue();
    }

    /**
     * Connection lost, session moved or expired, the server timed out, or (synchronous calls on a
     * client with {@code zookeeper.request.timeout} set) the client did: a write's outcome is
     * unknown.
     */
    public boolean connectionProblem() {
        Code c = code();
        return c == Code.CONNECTIONLOSS
                || c == Code.SESSIONEXPIRED
                || c == Code.SESSIONMOVED
                || c == Code.OPERATIONTIMEOUT
                || c == Code.REQUESTTIMEOUT;
    }

    @Override
    public String toString() {
        return "Reply[" + code() + " " + path + "]";
    }
}
