package io.cosid.store.spi;

import io.cosid.store.RangeStore;
import io.cosid.store.SlotLeaseStore;
import io.cosid.store.Store;
import io.cosid.store.StoreAdmin;
import io.cosid.store.StoreObserver;
import io.cosid.store.StoreObserver.Operation;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A store whose every operation is reported to its {@link StoreObserver} once, with its outcome and
 * duration, and whose callers' leases are reported as they begin, are renewed, released or lost.
 * Every backend returns its stores through {@link #observe}, so that what is reported is the same
 * on all of them; what only a backend knows (failed writes, its connection) it reports itself.
 */
public final class ObservedStore implements Store {

    private final Store store;
    private final ObservedRangeStore ranges;
    private final ObservedSlotLeaseStore slots;
    private final Reporter reporter;
    private final AtomicBoolean closed = new AtomicBoolean();

    private ObservedStore(Store store, StoreObserver observer) {
        this.store = store;
        this.reporter = new Reporter(store.name(), store.type(), SafeObserver.of(observer));
        this.ranges = new ObservedRangeStore(store.ranges(), reporter);
        this.slots = new ObservedSlotLeaseStore(store.slots(), reporter);
    }

    /**
     * {@code store} reporting to {@code observer}.
     *
     * @param store the backend's store
     * @param observer the observer; {@link StoreObserver#NONE} returns {@code store} itself, so a
     *     store nobody observes costs nothing
     * @return the observed store
     */
    public static Store observe(Store store, StoreObserver observer) {
        if (observer == StoreObserver.NONE) {
            return store;
        }
        ObservedStore observed = new ObservedStore(store, observer);
        observed.reporter.observer().opened(store.name(), store.type());
        return observed;
    }

    /**
     * The backend's own store inside {@code store}, for the backend's tests.
     *
     * @param store a store {@link #observe} returned, or any other
     * @return the store it observes, or {@code store} itself when it observes none
     */
    public static Store unwrap(Store store) {
        return store instanceof ObservedStore o ? o.store : store;
    }

    @Override
    public String name() {
        return store.name();
    }

    @Override
    public String type() {
        return store.type();
    }

    @Override
    public RangeStore ranges() {
        return ranges;
    }

    @Override
    public SlotLeaseStore slots() {
        return slots;
    }

    @Override
    public Optional<StoreAdmin> admin() {
        return store.admin()
                .map(
                        admin ->
                                () ->
                                        reporter.run(
                                                Operation.PURGE,
                                                "",
                                                () -> {
                                                    admin.purge();
                                                    return null;
                                                }));
    }

    @Override
    public void close() {
        store.close();
        if (closed.compareAndSet(false, true)) {
            reporter.observer().closed(store.name(), store.type());
        }
    }

    @Override
    public String toString() {
        return store.toString();
    }
}
