package io.cosid.store.zookeeper.internal.wire;

import java.util.List;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;

/**
 * One reply from ZooKeeper: the result code and whatever the request returns (absent parts are
 * null).
 *
 * @param rc the result code
 * @param path the node the reply is about; for a failed multi, the operation that failed
 * @param data a read's data
 * @param stat the node's Stat, when the request returns one
 * @param children a listing's child names
 * @param results a multi's per-operation results
 * @param acl an ACL read's entries
 */
public record Reply(
        int rc,
        String path,
        byte[] data,
        Stat stat,
        List<String> children,
        List<OpResult> results,
        List<ACL> acl) {

    Reply(
            int rc,
            String path,
            byte[] data,
            Stat stat,
            List<String> children,
            List<OpResult> results) {
        this(rc, path, data, stat, children, results, null);
    }

    /** A reply with nothing but a code and a path. */
    static Reply of(Code code, String path) {
        return new Reply(code.intValue(), path, null, null, null, null);
    }

    /** One read of a read-only multi as a reply: a node's data or children, or the error it got. */
    public static Reply ofRead(String path, OpResult result) {
        if (result instanceof OpResult.GetDataResult g) {
            return new Reply(Code.OK.intValue(), path, g.getData(), g.getStat(), null, null);
        }
        if (result instanceof OpResult.GetChildrenResult c) {
            return new Reply(Code.OK.intValue(), path, null, null, c.getChildren(), null);
        }
        return new Reply(((OpResult.ErrorResult) result).getErr(), path, null, null, null, null);
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
}
