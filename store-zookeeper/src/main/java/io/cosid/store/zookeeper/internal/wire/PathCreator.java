package io.cosid.store.zookeeper.internal.wire;

import io.cosid.store.StoreException;
import io.cosid.store.spi.Deadline;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import org.apache.zookeeper.KeeperException.Code;

/**
 * Creates the store's own parent nodes (empty, with the store's ACL) where they are missing; a node
 * that exists is left as it is. Only bookkeeping goes through here, never a node whose data means
 * something.
 */
@Singleton
public final class PathCreator {

    private final RoundTrips roundTrips;
    private final ConnectionRetry retry;
    private final Failures failures;
    private final NodePaths paths;

    @Inject
    PathCreator(RoundTrips roundTrips, ConnectionRetry retry, Failures failures, NodePaths paths) {
        this.roundTrips = roundTrips;
        this.retry = retry;
        this.failures = failures;
        this.paths = paths;
    }

    /** Creates {@code path} and the parents it lacks, up to the top node, which must exist. */
    public void ensure(Deadline deadline, String path) {
        ensure(deadline, path, new byte[0]);
    }

    /**
     * The same, creating {@code path} itself with {@code data} (a node's initial bookkeeping, such
     * as a landing hint); a node that exists keeps its data.
     */
    public void ensure(Deadline deadline, String path, byte[] data) {
        Reply r = create(deadline, path, data);
        for (int attempt = 0; !r.ok() && !r.is(Code.NODEEXISTS); r = create(deadline, path, data)) {
            if (r.is(Code.NONODE)) {
                String parent = NodePaths.parent(path);
                if (parent == null) {
                    throw new StoreException(
                            deadline.operation()
                                    + " cannot create "
                                    + path
                                    + ": the top node is"
                                    + " missing (was the connect string's chroot deleted?)");
                }
                ensure(deadline, parent);
            } else if (r.connectionProblem()) {
                retry.awaitReconnect(deadline, attempt++, r);
            } else {
                throw failures.unexpected(deadline, r);
            }
        }
    }

    private Reply create(Deadline deadline, String path, byte[] data) {
        return roundTrips.sendOne(deadline, h -> Requests.create(h, path, data, paths.acl()));
    }
}
