package io.cosid.store.zookeeper.internal.wire;

import io.cosid.store.StoreConfig;
import io.cosid.store.StoreObserver;
import io.cosid.store.StoreObserver.ConnectionEvent;
import io.cosid.store.StoreObserver.FailedWriteEvent;
import io.cosid.store.spi.Deadline;
import io.cosid.store.spi.SafeObserver;
import io.cosid.store.zookeeper.internal.connect.ZooKeeperOptions;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.util.List;

/**
 * What only this backend knows, reported to the store's log ({@link ZooKeeperLog}) and {@link
 * StoreObserver}: conditional writes that did not land ({@link ConditionalWrite}) and the client's
 * connection states ({@link ConnectionReports}). Operations themselves are reported around the
 * store ({@link io.cosid.store.spi.ObservedStore}).
 */
@Singleton
public final class Observations {

    private final String store;
    private final ZooKeeperLog log;
    private final StoreObserver observer;

    @Inject
    Observations(StoreConfig config) {
        this(config, new ZooKeeperLog());
    }

    Observations(StoreConfig config, ZooKeeperLog log) {
        this.store = config.name();
        this.log = log;
        this.observer = SafeObserver.of(StoreObserver.all(List.of(log, config.observer())));
    }

    /** The store's log, and the observer of its configuration after it. */
    public StoreObserver observer() {
        return observer;
    }

    /** The store's name. */
    public String store() {
        return store;
    }

    /** The store's log. */
    public ZooKeeperLog log() {
        return log;
    }

    /** The ACL of range key {@code key}'s line refuses this store ({@link ZooKeeperLog}). */
    public void lineNotWritable(String key, String node) {
        log.lineNotWritable(store, key, node);
    }

    /** A conditional write of the operation {@code deadline} budgets did not land. */
    void failedWrite(Deadline deadline, FailedWriteEvent.Reason reason) {
        StoreObserver.Operation operation = deadline.kind();
        if (operation != null) {
            observer.failedWrite(
                    new FailedWriteEvent(store, ZooKeeperOptions.TYPE, operation, reason));
        }
    }

    /** The client's connection changed state. */
    void connection(ConnectionEvent.State state, boolean newSession) {
        observer.connection(new ConnectionEvent(store, ZooKeeperOptions.TYPE, state, newSession));
    }
}
