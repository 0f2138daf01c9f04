package io.cosid.store.zookeeper.internal;

import io.cosid.store.StoreException;
import io.cosid.store.spi.Deadline;
import io.cosid.store.zookeeper.internal.connect.ServerVersion;
import io.cosid.store.zookeeper.internal.connect.ZooKeeperOptions;
import io.cosid.store.zookeeper.internal.wire.Failures;
import io.cosid.store.zookeeper.internal.wire.ParentAcls;
import io.cosid.store.zookeeper.internal.wire.Reads;
import io.cosid.store.zookeeper.internal.wire.Reply;
import io.cosid.store.zookeeper.internal.wire.Requests;
import io.cosid.store.zookeeper.internal.wire.StoreLifecycle;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.util.List;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.Op;

/**
 * What a store checks once it is connected, before it is handed out: that the connect string's
 * chroot exists (the store creates what is missing below it, never the chroot itself, which lies
 * outside its reach), and that the parents it relies on keep its creator-only ACLs meaningful
 * ({@link ParentAcls}).
 */
@Singleton
final class OpenChecks {

    private final Reads reads;
    private final Failures failures;
    private final ZooKeeperOptions options;
    private final ParentAcls parentAcls;
    private final StoreLifecycle lifecycle;

    @Inject
    OpenChecks(
            Reads reads,
            Failures failures,
            ZooKeeperOptions options,
            ParentAcls parentAcls,
            StoreLifecycle lifecycle) {
        this.reads = reads;
        this.failures = failures;
        this.options = options;
        this.parentAcls = parentAcls;
        this.lifecycle = lifecycle;
    }

    /**
     * Runs the checks within the store's timeout.
     *
     * @param ownClient whether the store built its client from the connect string (a caller's
     *     client has its own, unknown here)
     */
    void run(boolean ownClient) {
        Deadline deadline = lifecycle.start("open of the store");
        String chroot = options.chroot();
        if (ownClient && chroot != null) {
            // through a chroot, "/" is the chroot node itself
            Reply r = reads.one(deadline, h -> Requests.getData(h, "/"));
            if (r.is(Code.NONODE)) {
                throw new StoreException(
                        "the chroot "
                                + chroot
                                + " of connectString '"
                                + options.connectString()
                                + "' does not exist on the server: create it (zkCli: create "
                                + chroot
                                + ") or remove it"
                                + " from connectString");
            }
            if (!r.ok() && !r.is(Code.NOAUTH)) {
                throw failures.unexpected(deadline, r);
            }
        }
        requireReadMulti(deadline);
        parentAcls.checkTop(deadline);
    }

    /**
     * A slot acquire reads its slots with read-only multis, which ZooKeeper serves from 3.6 on: an
     * older server is refused here, naming its version, rather than on the first acquire.
     */
    private void requireReadMulti(Deadline deadline) {
        Reply r = reads.one(deadline, h -> Requests.multi(h, List.of(Op.getData("/"))));
        if (r.ok() || r.is(Code.NONODE) || r.is(Code.NOAUTH)) {
            return;
        }
        if (r.is(Code.UNIMPLEMENTED) || r.is(Code.MARSHALLINGERROR) || r.is(Code.BADARGUMENTS)) {
            throw new StoreException(
                    "the ZooKeeper server at "
                            + options.connectString()
                            + " ("
                            + ServerVersion.describe(options.connectString())
                            + ") cannot serve the read-only multi a slot acquire sends: cosid-store"
                            + " needs ZooKeeper 3.6 or newer (tested on 3.8 and 3.9)");
        }
        throw failures.unexpected(deadline, r);
    }
}
