package io.cosid.store.zookeeper.internal.wire;

import io.cosid.store.StoreObserver.ConnectionEvent;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;

/**
 * Passes the client's connection states to the store's observer while the store is open, telling a
 * reconnection on a new session (the old one expired) from one on the same session.
 */
@Singleton
public final class ConnectionReports implements ConnectionStateListener {

    private final Observations observations;
    private final CuratorFramework client;

    /** The session the client had when last connected; 0: none seen yet. */
    private long session;

    @Inject
    ConnectionReports(Observations observations, CuratorFramework client) {
        this.observations = observations;
        this.client = client;
    }

    /** Starts listening. */
    public void start() {
        synchronized (this) {
            session = sessionId();
        }
        client.getConnectionStateListenable().addListener(this);
    }

    /** Stops listening (at close). */
    public void stop() {
        client.getConnectionStateListenable().removeListener(this);
    }

    @Override
    public void stateChanged(CuratorFramework c, ConnectionState newState) {
        boolean newSession = false;
        if (newState.isConnected()) {
            long now = sessionId();
            synchronized (this) {
                newSession = session != 0 && now != 0 && now != session;
                if (now != 0) {
                    session = now;
                }
            }
        }
        observations.connection(state(newState), newSession);
    }

    private static ConnectionEvent.State state(ConnectionState s) {
        return switch (s) {
            case CONNECTED -> ConnectionEvent.State.CONNECTED;
            case SUSPENDED -> ConnectionEvent.State.SUSPENDED;
            case RECONNECTED -> ConnectionEvent.State.RECONNECTED;
            case LOST -> ConnectionEvent.State.LOST;
            case READ_ONLY -> ConnectionEvent.State.READ_ONLY;
        };
    }

    /** The client's session now; 0 when it has none. */
    private long sessionId() {
        try {
            return client.getZookeeperClient().getZooKeeper().getSessionId();
        } catch (Exception e) {
            return 0;
        }
    }
}
