package io.cosid.store.zookeeper.internal.connect;

import java.time.Duration;
import org.apache.curator.framework.CuratorFramework;

/**
 * Closes a store's own Curator client within a bound. ZooKeeper's client ends its session with a
 * request it waits for without a time limit: against a server that accepts connections but never
 * answers (stopped with SIGSTOP, a silent listener, a hung host) that wait lasts until the
 * connection attempt times out, a session timeout later (60 s by default), whether the client ever
 * connected or not. So the close runs on a thread of its own and the caller waits for it at most
 * the bound; past it the close goes on in the background (ZooKeeper's threads are daemons, so it
 * never keeps a JVM alive) and the caller is told, to say so.
 */
public final class ClientClose {

    private ClientClose() {}

    /**
     * Closes {@code client}, waiting at most {@code bound} for it.
     *
     * @param client the client
     * @param bound how long to wait for the close
     * @return true if the close finished within the bound
     */
    public static boolean within(CuratorFramework client, Duration bound) {
        Thread closer = new Thread(client::close, "cosid-store-client-close");
        closer.setDaemon(true);
        closer.start();
        try {
            closer.join(Math.max(1, bound.toMillis()));
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
        return !closer.isAlive();
    }
}
