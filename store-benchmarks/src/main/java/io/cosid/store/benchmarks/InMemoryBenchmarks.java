package io.cosid.store.benchmarks;

import io.cosid.store.Range;
import io.cosid.store.SlotLease;
import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.StoreObserver;
import io.cosid.store.inmemory.InMemoryStores;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * JMH: the in-memory store, which users run in their unit tests, must hand out millions of ranges
 * per second on one thread. Run with the {@code benchmarks} profile or {@code java -cp ...
 * org.openjdk.jmh.Main InMemory}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class InMemoryBenchmarks {

    /**
     * Whether the store reports to an observer: {@code none}, or {@code counting} (an observer that
     * counts every event, as a metrics binding does), to show what observation costs.
     */
    @Param({"none", "counting"})
    public String observer;

    private Store store;
    private SlotLease lease;

    /** An observer that counts every event, as a metrics binding's counters do. */
    private static final class Counting implements StoreObserver {
        final LongAdder operations = new LongAdder();
        final LongAdder leases = new LongAdder();

        @Override
        public void operation(StoreObserver.OperationEvent event) {
            operations.increment();
        }

        @Override
        public void lease(StoreObserver.LeaseEvent event) {
            leases.increment();
        }
    }

    /** Opens a fresh store per trial. */
    @Setup(Level.Trial)
    public void open() {
        StoreConfig config = StoreConfig.of("bench", "in-memory");
        store =
                InMemoryStores.backend()
                        .open(
                                observer.equals("counting")
                                        ? config.withObserver(new Counting())
                                        : config);
        store.slots().define("workers", 1024, Duration.ofMillis(1));
        lease = store.slots().acquire("workers", "host-1", Duration.ofMinutes(10));
    }

    /** Closes the store. */
    @TearDown(Level.Trial)
    public void close() {
        store.close();
    }

    /**
     * One range acquire on one key.
     *
     * @return the range (consumed by JMH)
     */
    @Benchmark
    public Range rangeAcquire() {
        return store.ranges().acquire("orders", 100);
    }

    /**
     * One lease renew.
     *
     * @return the renewed lease (consumed by JMH)
     */
    @Benchmark
    public SlotLease leaseRenew() {
        lease = store.slots().renew(lease);
        return lease;
    }
}
