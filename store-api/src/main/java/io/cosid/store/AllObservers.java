package io.cosid.store;

import java.util.List;
import java.util.function.Supplier;

/**
 * Several observers as one ({@link StoreObserver#all}): every event to each in order, and, when one
 * has an around-hook ({@link Surrounding}), their hooks nested, the first outermost.
 */
class AllObservers implements StoreObserver {

    /** The observers, in order. */
    final List<StoreObserver> all;

    AllObservers(List<StoreObserver> all) {
        this.all = all;
    }

    @Override
    public void opened(String store, String type) {
        all.forEach(o -> o.opened(store, type));
    }

    @Override
    public void closed(String store, String type) {
        all.forEach(o -> o.closed(store, type));
    }

    @Override
    public void operation(OperationEvent event) {
        all.forEach(o -> o.operation(event));
    }

    @Override
    public void failedWrite(FailedWriteEvent event) {
        all.forEach(o -> o.failedWrite(event));
    }

    @Override
    public void connection(ConnectionEvent event) {
        all.forEach(o -> o.connection(event));
    }

    @Override
    public void lease(LeaseEvent event) {
        all.forEach(o -> o.lease(event));
    }

    @Override
    public String toString() {
        return "StoreObserver.all" + all;
    }

    /**
     * Whether {@code observer} overrides {@link StoreObserver#around}. Several observers without a
     * hook make none, so that a store skips it (as {@code SafeObserver} does for one).
     */
    static boolean surrounds(StoreObserver observer) {
        try {
            return observer.getClass()
                            .getMethod("around", OperationStart.class, Supplier.class)
                            .getDeclaringClass()
                    != StoreObserver.class;
        } catch (NoSuchMethodException e) {
            return true; // cannot happen: every observer has it; the safe answer anyway
        }
    }

    /** Several observers at least one of which has an around-hook: the hooks nest. */
    static final class Surrounding extends AllObservers {

        Surrounding(List<StoreObserver> all) {
            super(all);
        }

        @Override
        public <T> T around(OperationStart start, Supplier<T> call) {
            return nested(0, start, call);
        }

        private <T> T nested(int from, OperationStart start, Supplier<T> call) {
            if (from == all.size()) {
                return call.get();
            }
            return all.get(from).around(start, () -> nested(from + 1, start, call));
        }
    }
}
