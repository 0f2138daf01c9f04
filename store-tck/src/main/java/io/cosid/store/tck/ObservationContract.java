package io.cosid.store.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.cosid.store.LeaseLostException;
import io.cosid.store.NamespaceConflictException;
import io.cosid.store.NamespaceNotFoundException;
import io.cosid.store.Range;
import io.cosid.store.RangeSealedException;
import io.cosid.store.SlotBusyException;
import io.cosid.store.SlotLease;
import io.cosid.store.SlotsExhaustedException;
import io.cosid.store.Store;
import io.cosid.store.StoreObserver;
import io.cosid.store.StoreObserver.LeaseEvent;
import io.cosid.store.StoreObserver.Operation;
import io.cosid.store.StoreObserver.OperationEvent;
import io.cosid.store.StoreObserver.OperationStart;
import io.cosid.store.StoreObserver.Outcome;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Observation (docs/contract.md, "Observation"): every operation is reported to the store's {@link
 * StoreObserver} exactly once, with the outcome its caller saw, and leases as they begin, are
 * renewed, released and lost. Backends whose fixture cannot attach an observer skip it visibly.
 */
public abstract class ObservationContract extends StoreContractSupport {

    /** Creates the subclass. */
    protected ObservationContract() {}

    private static final Duration TTL = Duration.ofSeconds(30);

    /** What an observer heard, in order. */
    private static final class Recording implements StoreObserver {
        final List<OperationEvent> operations = new CopyOnWriteArrayList<>();
        final List<LeaseEvent> leases = new CopyOnWriteArrayList<>();
        final List<String> lifecycle = new CopyOnWriteArrayList<>();

        @Override
        public void opened(String store, String type) {
            lifecycle.add("opened " + store + " " + type);
        }

        @Override
        public void closed(String store, String type) {
            lifecycle.add("closed " + store + " " + type);
        }

        @Override
        public void operation(OperationEvent event) {
            operations.add(event);
        }

        @Override
        public void lease(LeaseEvent event) {
            leases.add(event);
        }

        List<String> outcomes() {
            return operations.stream()
                    .map(e -> e.operation().tag() + " " + e.outcome().tag())
                    .toList();
        }
    }

    private final Recording recording = new Recording();

    private Store observed() {
        return observed(recording);
    }

    private Store observed(StoreObserver observer) {
        var store = fixture.openObservedStore(observer);
        assumeThat(store).as("this backend's fixture cannot attach an observer").isPresent();
        return store.orElseThrow();
    }

    @Test
    @DisplayName("every range operation is reported once, with the outcome its caller saw")
    void rangeOperations() {
        Store s = observed();
        s.ranges().acquire("orders", 10);
        s.ranges().peek("orders");
        s.ranges().advance("orders", 100);
        s.ranges().seal("orders");
        s.ranges().list();
        assertThatThrownBy(() -> s.ranges().acquire("orders", 10))
                .isInstanceOf(RangeSealedException.class);

        assertThat(recording.outcomes())
                .containsExactly(
                        "range.acquire success",
                        "range.peek success",
                        "range.advance success",
                        "range.seal success",
                        "range.list success",
                        "range.acquire sealed");
        assertThat(recording.operations)
                .allSatisfy(
                        e -> {
                            assertThat(e.store()).isEqualTo(s.name());
                            assertThat(e.type()).isEqualTo(s.type());
                            assertThat(e.duration().isNegative()).isFalse();
                            assertThat(e.subject())
                                    .isEqualTo(
                                            e.operation() == Operation.RANGE_LIST ? "" : "orders");
                        });
    }

    @Test
    @DisplayName("every slot operation is reported once, with the outcome its caller saw")
    void slotOperations() {
        Store s = observed();
        s.slots().define("workers", 2, Duration.ofMillis(200));
        s.slots().namespace("workers");
        s.slots().namespaces();
        SlotLease lease = s.slots().acquire("workers", "host-1", TTL);
        SlotLease renewed = s.slots().renew(lease);
        s.slots().inspect("workers");
        assertThatThrownBy(
                        () ->
                                s.slots()
                                        .advance(
                                                "workers",
                                                renewed.slot(),
                                                renewed.fence() + 1,
                                                Instant.EPOCH))
                .isInstanceOf(SlotBusyException.class);
        s.slots().release(renewed);
        assertThatThrownBy(() -> s.slots().renew(renewed)).isInstanceOf(LeaseLostException.class);
        assertThatThrownBy(() -> s.slots().acquire("nowhere", "host-1", TTL))
                .isInstanceOf(NamespaceNotFoundException.class);
        assertThatThrownBy(() -> s.slots().define("workers", 1, Duration.ofMillis(200)))
                .isInstanceOf(NamespaceConflictException.class);

        assertThat(recording.outcomes())
                .containsExactly(
                        "namespace.define success",
                        "namespace.get success",
                        "namespace.list success",
                        "slot.acquire success",
                        "slot.renew success",
                        "slot.inspect success",
                        "slot.advance busy",
                        "slot.release success",
                        "slot.renew lease.lost",
                        "slot.acquire not.found",
                        "namespace.define conflict");
        assertThat(recording.operations)
                .allSatisfy(
                        e ->
                                assertThat(e.subject())
                                        .isEqualTo(
                                                e.operation() == Operation.NAMESPACE_LIST
                                                        ? ""
                                                        : e.operation() == Operation.SLOT_ACQUIRE
                                                                        && e.outcome()
                                                                                == Outcome.NOT_FOUND
                                                                ? "nowhere"
                                                                : "workers"));
    }

    @Test
    @DisplayName("no free slot is reported as exhausted")
    void exhausted() {
        Store s = observed();
        s.slots().define("one", 1, Duration.ofMillis(200));
        s.slots().acquire("one", "host-1", TTL);
        assertThatThrownBy(() -> s.slots().acquire("one", "host-2", TTL))
                .isInstanceOf(SlotsExhaustedException.class);
        assertThat(recording.outcomes())
                .containsExactly(
                        "namespace.define success",
                        "slot.acquire success",
                        "slot.acquire exhausted");
    }

    @Test
    @DisplayName("bad input and a closed store are reported as refused")
    void refused() {
        Store s = observed();
        assertThatThrownBy(() -> s.ranges().acquire("orders", 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> s.slots().define("bad/name", 2, Duration.ofMillis(200)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> s.ranges().acquire(nullKey(), 10))
                .isInstanceOf(IllegalArgumentException.class);
        s.close();
        assertThatThrownBy(() -> s.ranges().acquire("orders", 10))
                .isInstanceOf(IllegalStateException.class);
        assertThat(recording.outcomes())
                .containsExactly(
                        "range.acquire refused",
                        "namespace.define refused",
                        "range.acquire refused",
                        "range.acquire refused");
        assertThat(recording.operations.get(2).subject()).as("a null key: about nothing").isEmpty();
    }

    /** A null key, as a caller may pass one. */
    @SuppressWarnings("NullAway") // the point: bad input
    private static String nullKey() {
        return null;
    }

    @Test
    @DisplayName(
            "leases are reported as acquired, renewed (with the margin the old term had left),"
                    + " released and lost")
    void leases() {
        Store s = observed();
        s.slots().define("workers", 2, Duration.ofMillis(200));
        SlotLease lease = s.slots().acquire("workers", "host-1", TTL);
        SlotLease renewed = s.slots().renew(lease);
        s.slots().release(renewed);
        SlotLease again = s.slots().acquire("workers", "host-1", TTL);
        s.slots().release(again);
        assertThatThrownBy(() -> s.slots().renew(again)).isInstanceOf(LeaseLostException.class);

        assertThat(recording.leases)
                .extracting(LeaseEvent::kind)
                .containsExactly(
                        LeaseEvent.Kind.ACQUIRED,
                        LeaseEvent.Kind.RENEWED,
                        LeaseEvent.Kind.RELEASED,
                        LeaseEvent.Kind.ACQUIRED,
                        LeaseEvent.Kind.RELEASED,
                        LeaseEvent.Kind.LOST);
        LeaseEvent acquired = recording.leases.get(0);
        assertThat(acquired.lease()).isEqualTo(lease);
        assertThat(acquired.validFor()).isPositive().isLessThanOrEqualTo(TTL);
        assertThat(acquired.margin()).isZero();
        LeaseEvent renewal = recording.leases.get(1);
        assertThat(renewal.lease()).isEqualTo(renewed);
        assertThat(renewal.validFor()).isPositive().isLessThanOrEqualTo(TTL);
        assertThat(renewal.margin()).isPositive().isLessThanOrEqualTo(TTL);
        assertThat(recording.leases.get(2).lease()).isEqualTo(renewed);
        assertThat(recording.leases.get(2).validFor()).isZero();
        assertThat(recording.leases.get(5).lease()).isEqualTo(again);
        assertThat(recording.leases).allSatisfy(e -> assertThat(e.store()).isEqualTo(s.name()));
    }

    @Test
    @DisplayName("opening and closing are reported once each, however often close is called")
    void lifecycle() {
        Store s = observed();
        assertThat(recording.lifecycle).containsExactly("opened " + s.name() + " " + s.type());
        s.close();
        s.close();
        assertThat(recording.lifecycle)
                .containsExactly(
                        "opened " + s.name() + " " + s.type(),
                        "closed " + s.name() + " " + s.type());
    }

    @Test
    @DisplayName("concurrent acquires are each reported exactly once")
    void concurrentAcquires() throws Exception {
        Store s = observed();
        int threads = 8;
        int each = 50;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<List<Range>>> futures = new ArrayList<>();
        try {
            for (int t = 0; t < threads; t++) {
                futures.add(
                        pool.submit(
                                () -> {
                                    List<Range> got = new ArrayList<>();
                                    for (int i = 0; i < each; i++) {
                                        got.add(s.ranges().acquire("orders", 3));
                                    }
                                    return got;
                                }));
            }
            for (Future<List<Range>> f : futures) {
                assertThat(f.get()).hasSize(each);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(recording.operations)
                .hasSize(threads * each)
                .allSatisfy(
                        e -> {
                            assertThat(e.operation()).isEqualTo(Operation.RANGE_ACQUIRE);
                            assertThat(e.outcome()).isEqualTo(Outcome.SUCCESS);
                        });
    }

    @Test
    @DisplayName("an observer that throws does not fail the store's operations")
    void throwingObserver() {
        Store s =
                observed(
                        new StoreObserver() {
                            @Override
                            public void operation(OperationEvent event) {
                                throw new IllegalStateException("observer failure (planted)");
                            }

                            @Override
                            public void lease(LeaseEvent event) {
                                throw new IllegalStateException("observer failure (planted)");
                            }
                        });
        assertThat(s.ranges().acquire("orders", 10).start()).isZero();
        assertThat(s.ranges().acquire("orders", 10).start()).isEqualTo(10);
        s.slots().define("workers", 2, Duration.ofMillis(200));
        SlotLease lease = s.slots().acquire("workers", "host-1", TTL);
        assertThat(s.slots().renew(lease).fence()).isEqualTo(lease.fence());
    }

    /** Records which operation each event fell inside, by the around-hook it ran in. */
    private static final class Enclosing implements StoreObserver {
        final List<String> heard = new CopyOnWriteArrayList<>();

        /** The operation whose hook runs now (the test calls from one thread). */
        private volatile @Nullable OperationStart current;

        @Override
        public <T> T around(OperationStart start, Supplier<T> call) {
            heard.add("begin " + start.operation().tag() + " " + start.subject());
            current = start;
            try {
                return call.get();
            } finally {
                current = null;
                heard.add("end " + start.operation().tag());
            }
        }

        @Override
        public void operation(OperationEvent event) {
            heard.add(inside() + event.operation().tag() + " " + event.outcome().tag());
        }

        @Override
        public void lease(LeaseEvent event) {
            heard.add(inside() + "lease " + event.kind());
        }

        private String inside() {
            OperationStart start = current;
            return start == null ? "outside: " : "inside " + start.operation().tag() + ": ";
        }
    }

    @Test
    @DisplayName(
            "every operation runs inside the observer's around-hook once, its events inside it")
    void aroundHook() {
        Enclosing enclosing = new Enclosing();
        Store s = observed(enclosing);
        s.ranges().acquire("orders", 10);
        s.slots().define("workers", 1, Duration.ofMillis(200));
        SlotLease lease = s.slots().acquire("workers", "host-1", TTL);
        s.slots().release(s.slots().renew(lease));
        assertThatThrownBy(() -> s.slots().renew(lease)).isInstanceOf(LeaseLostException.class);

        assertThat(enclosing.heard)
                .containsExactly(
                        "begin range.acquire orders",
                        "inside range.acquire: range.acquire success",
                        "end range.acquire",
                        "begin namespace.define workers",
                        "inside namespace.define: namespace.define success",
                        "end namespace.define",
                        "begin slot.acquire workers",
                        "inside slot.acquire: lease ACQUIRED",
                        "inside slot.acquire: slot.acquire success",
                        "end slot.acquire",
                        "begin slot.renew workers",
                        "inside slot.renew: lease RENEWED",
                        "inside slot.renew: slot.renew success",
                        "end slot.renew",
                        "begin slot.release workers",
                        "inside slot.release: lease RELEASED",
                        "inside slot.release: slot.release success",
                        "end slot.release",
                        "begin slot.renew workers",
                        "inside slot.renew: lease LOST",
                        "inside slot.renew: slot.renew lease.lost",
                        "end slot.renew");
    }

    @Test
    @DisplayName(
            "an around-hook that throws, skips the operation or runs it twice changes nothing its"
                    + " caller sees: the operation runs once")
    void misbehavingAroundHooks() {
        Store throwing =
                observed(
                        new StoreObserver() {
                            @Override
                            public <T> T around(OperationStart start, Supplier<T> call) {
                                throw new IllegalStateException("hook failure (planted)");
                            }
                        });
        assertThat(throwing.ranges().acquire("throwing", 10).start()).isZero();
        assertThat(throwing.ranges().acquire("throwing", 10).start()).isEqualTo(10);

        Store skipping =
                observed(
                        new StoreObserver() {
                            @Override
                            @SuppressWarnings("unchecked") // never reaches the caller
                            public <T> T around(OperationStart start, Supplier<T> call) {
                                return (T) "a result of its own";
                            }
                        });
        assertThat(skipping.ranges().acquire("skipping", 10).start()).isZero();
        assertThat(skipping.ranges().acquire("skipping", 10).start()).isEqualTo(10);

        Store twice =
                observed(
                        new StoreObserver() {
                            @Override
                            public <T> T around(OperationStart start, Supplier<T> call) {
                                var unused = call.get();
                                return call.get();
                            }
                        });
        assertThat(twice.ranges().acquire("twice", 10).start()).isZero();
        assertThat(twice.ranges().acquire("twice", 10).start()).isEqualTo(10);
        assertThatThrownBy(() -> twice.ranges().acquire("twice", -1))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
