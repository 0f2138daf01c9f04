package io.cosid.store.zookeeper.internal;

import io.cosid.store.StoreException;
import io.cosid.store.zookeeper.internal.ZkCalls.Reply;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import org.apache.zookeeper.KeeperException.Code;

/**
 * What a store checks once it is connected, before it is handed out: that the connect string's chroot exists
 * (the store creates what is missing below it, never the chroot itself, which lies outside its reach), and
 * that the parents it relies on keep its creator-only ACLs meaningful ({@link ParentAcls}).
 */
@Singleton
final class OpenChecks {

    private final ZkCalls zk;
    private final ZooKeeperOptions options;
    private final ParentAcls parentAcls;
    private final StoreLifecycle lifecycle;

    @Inject
    OpenChecks(ZkCalls zk, ZooKeeperOptions options, ParentAcls parentAcls, StoreLifecycle lifecycle) {
        this.zk = zk;
        this.options = options;
        this.parentAcls = parentAcls;
        this.lifecycle = lifecycle;
    }

    /**
     * Runs the checks within the store's timeout.
     *
     * @param ownClient whether the store built its client from the connect string (a caller's client has its
     *                  own, unknown here)
     */
    void run(boolean ownClient) {
        Deadline deadline = lifecycle.start("open of the store");
        String chroot = options.chroot();
        if (ownClient && chroot != null) {
            // through a chroot, "/" is the chroot node itself
            Reply r = zk.read1(deadline, h -> ZkCalls.getData(h, "/"));
            if (r.is(Code.NONODE)) {
                throw new StoreException("the chroot " + chroot + " of connectString '" + options.connectString()
                        + "' does not exist on the server: create it (zkCli: create " + chroot + ") or remove it"
                        + " from connectString");
            }
            if (!r.ok() && !r.is(Code.NOAUTH)) {
                throw zk.unexpected(deadline, r);
            }
        }
        parentAcls.checkTop(deadline);
    }
}
