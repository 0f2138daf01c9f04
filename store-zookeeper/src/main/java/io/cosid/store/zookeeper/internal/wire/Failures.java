package io.cosid.store.zookeeper.internal.wire;

import io.cosid.store.StoreException;
import io.cosid.store.StoreUnavailableException;
import io.cosid.store.spi.Deadline;
import io.cosid.store.zookeeper.internal.connect.ZooKeeperOptions;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.KeeperException.Code;

/**
 * The exceptions for replies the store has no rule for, and for writes whose outcome stays unknown.
 */
@Singleton
public final class Failures {

    private final ZooKeeperOptions options;

    @Inject
    Failures(ZooKeeperOptions options) {
        this.options = options;
    }

    /** A reply the caller has no rule for: reported with the path and the code, never ignored. */
    public StoreException unexpected(Deadline deadline, Reply reply) {
        KeeperException cause = KeeperException.create(reply.code(), reply.path());
        if (reply.is(Code.NOAUTH) || reply.is(Code.AUTHFAILED)) {
            return new StoreException(
                    deadline.operation()
                            + " was refused by ZooKeeper: not authorized for "
                            + reply.path()
                            + " (check the store's credentials and the nodes' ACLs)",
                    cause);
        }
        return new StoreException(
                deadline.operation()
                        + " failed: ZooKeeper answered "
                        + reply.code()
                        + " for "
                        + reply.path(),
                cause);
    }

    /**
     * An operation that sent a write whose reply was lost, and cannot tell any more whether it
     * landed: the caller must treat the write as possibly applied (docs/contract.md, "Unknown
     * outcomes").
     */
    public StoreUnavailableException outcomeUnknown(
            Deadline deadline, String found, Throwable cause) {
        return new StoreUnavailableException(
                options.connectString(),
                deadline.operation()
                        + ": a write whose reply"
                        + " was lost may have landed, and "
                        + found
                        + ", so its outcome is unknown",
                cause);
    }
}
