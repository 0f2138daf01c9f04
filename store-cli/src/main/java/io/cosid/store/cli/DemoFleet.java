package io.cosid.store.cli;

import io.cosid.store.SlotLease;
import io.cosid.store.SlotView;
import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.StoreException;
import io.cosid.store.StoreTimeoutException;
import io.cosid.store.StoreUnavailableException;
import io.cosid.store.Stores;
import io.cosid.store.cosid.LeaseBoundSnowflakeId;
import io.cosid.store.cosid.MachineIdLeaseException;
import io.cosid.store.cosid.StoreIdSegmentDistributor;
import io.cosid.store.cosid.StoreMachineIdDistributor;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import me.ahoo.cosid.CosIdException;
import me.ahoo.cosid.machine.InstanceId;
import me.ahoo.cosid.machine.MachineIdLostException;
import me.ahoo.cosid.machine.MachineIdOverflowException;
import me.ahoo.cosid.machine.MachineState;
import me.ahoo.cosid.segment.IdSegment;
import me.ahoo.cosid.segment.SegmentChainId;
import me.ahoo.cosid.segment.concurrent.PrefetchWorkerExecutorService;
import me.ahoo.cosid.snowflake.MillisecondSnowflakeId;
import me.ahoo.cosid.snowflake.SnowflakeId;
import me.ahoo.cosid.snowflake.exception.ClockBackwardsException;
import org.jspecify.annotations.Nullable;

/**
 * The demo's simulated instances, generating with CosId's own generators on cosid-store. Each has
 * its own store (its own client session, as a separate process would); its machine id comes from
 * {@link StoreMachineIdDistributor} (a slot lease, guarded by the instance itself every third of
 * the ttl) and its snowflake IDs from CosId's {@link MillisecondSnowflakeId} behind {@link
 * LeaseBoundSnowflakeId}, so no ID outside the lease's window is handed out; its segment IDs come
 * from CosId's {@link SegmentChainId} (prefetching) on {@link StoreIdSegmentDistributor}. Every
 * lease event and every ID is recorded.
 */
final class DemoFleet implements AutoCloseable {

    static final String NAMESPACE = "demo-workers";

    /** CosId's namespace of the demo's segment generators: keys {@code demo.orders}, ... */
    static final String SEGMENT_NAMESPACE = "demo";

    static final List<String> KEYS = List.of("orders", "invoices");

    /** The snowflake epoch: 2026-01-01T00:00:00Z. */
    static final long EPOCH = 1_767_225_600_000L;

    private static final int TIMESTAMP_BITS = 41;

    /**
     * A lease event as an instance saw it; for a release, {@code at} is the window's end in the
     * store.
     */
    record LeaseEvent(String kind, String owner, SlotLease lease, Instant at) {}

    final ConcurrentLinkedQueue<LeaseEvent> events = new ConcurrentLinkedQueue<>();
    final List<LongLog> snowflakes = new ArrayList<>();
    final List<List<LongLog>> segments = new ArrayList<>();
    final AtomicLong snowflakeCount = new AtomicLong();
    final AtomicLong segmentCount = new AtomicLong();
    final AtomicLong rangeCount = new AtomicLong();
    final List<String> errors = new ArrayList<>();

    /**
     * Operations the store did not complete in time (or could not reach the server for); the
     * instance went on, as an application would. A timeout is a slow store, never a duplicate.
     */
    final List<String> timeouts = new ArrayList<>();

    private final StoreConfig config;
    private final Duration ttl;
    private final Duration tolerance;
    private final int machineBit;
    private final PrefetchWorkerExecutorService prefetch =
            new PrefetchWorkerExecutorService(
                    PrefetchWorkerExecutorService.DEFAULT_PREFETCH_PERIOD, 1, false);

    DemoFleet(StoreConfig config, Duration ttl, Duration tolerance, int machineBit) {
        this.config = config;
        this.ttl = ttl;
        this.tolerance = tolerance;
        this.machineBit = machineBit;
        for (int i = 0; i < KEYS.size(); i++) {
            segments.add(new ArrayList<>());
        }
    }

    synchronized Instance start(String owner) {
        LongLog snow = new LongLog();
        snowflakes.add(snow);
        List<LongLog> seg = new ArrayList<>();
        for (List<LongLog> perKey : segments) {
            LongLog log = new LongLog();
            perKey.add(log);
            seg.add(log);
        }
        Instance instance = new Instance(owner, Stores.open(config), snow, seg);
        instance.thread.start();
        return instance;
    }

    synchronized void error(String message) {
        errors.add(message);
    }

    synchronized void timeout(String message) {
        timeouts.add(message);
    }

    synchronized List<String> timeouts() {
        return List.copyOf(timeouts);
    }

    synchronized List<String> errors() {
        return List.copyOf(errors);
    }

    /** Stops CosId's prefetch worker, which outlives the instances. */
    @Override
    public void close() {
        prefetch.shutdown();
    }

    /** One simulated instance, on its own thread and its own store. */
    final class Instance implements Runnable {
        final String owner;
        final Thread thread;
        private final InstanceId instanceId;
        private final Store store;
        private final StoreMachineIdDistributor machines;
        private final LongLog snow;
        private final List<LongLog> segmentLogs;
        private final List<CountingSegmentDistributor> distributors = new ArrayList<>();
        private final List<SegmentChainId> chains = new ArrayList<>();
        private volatile boolean stopping;
        private volatile boolean crash;
        private volatile @Nullable SlotLease lease;
        private @Nullable LeaseBoundSnowflakeId snowflake;
        private long guardedAt;

        Instance(String owner, Store store, LongLog snow, List<LongLog> segmentLogs) {
            this.owner = owner;
            this.instanceId = InstanceId.of(owner, true);
            this.store = store;
            this.machines = new StoreMachineIdDistributor(store.slots(), tolerance);
            this.snow = snow;
            this.segmentLogs = segmentLogs;
            for (String key : KEYS) {
                CountingSegmentDistributor d =
                        new CountingSegmentDistributor(
                                new StoreIdSegmentDistributor(
                                        store.ranges(), SEGMENT_NAMESPACE, key, 100),
                                rangeCount);
                distributors.add(d);
                chains.add(
                        new SegmentChainId(
                                IdSegment.TIME_TO_LIVE_FOREVER,
                                SegmentChainId.DEFAULT_SAFE_DISTANCE,
                                d,
                                prefetch));
            }
            this.thread = new Thread(this, owner);
        }

        /** Stops gracefully: reverts the machine id, which releases the lease. */
        void stop() {
            stopping = true;
            join();
        }

        /** Stops as a crash would: no revert; the lease expires in the store. */
        void crash() {
            crash = true;
            stopping = true;
            join();
        }

        int slot() {
            SlotLease l = lease;
            return l == null ? -1 : l.slot();
        }

        private void join() {
            try {
                thread.join(TimeUnit.SECONDS.toMillis(60));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public void run() {
            try {
                while (!stopping) {
                    try {
                        if (!holdMachineId()) {
                            pause(ttl.dividedBy(5));
                            continue;
                        }
                        stampSnowflakes();
                        takeSegmentIds();
                    } catch (StoreTimeoutException | StoreUnavailableException e) {
                        timeout(owner + ": " + e.getMessage());
                    }
                    pause(Duration.ofMillis(10));
                }
                SlotLease last = lease;
                if (!crash && snowflake != null && last != null) {
                    machines.revert(NAMESPACE, instanceId);
                    events.add(new LeaseEvent("released", owner, last, windowEnd(last)));
                } else if (last != null) {
                    events.add(new LeaseEvent("crashed", owner, last, Instant.now()));
                }
            } catch (StoreTimeoutException | StoreUnavailableException e) {
                timeout(owner + " (at its end): " + e.getMessage());
            } catch (StoreException | IllegalStateException | CosIdException e) {
                error(owner + ": " + e.getMessage());
            } finally {
                closeStore();
            }
        }

        /**
         * Distributes a machine id when it has none, guards it every third of the ttl; false while
         * it holds none.
         */
        private boolean holdMachineId() {
            if (snowflake == null) {
                MachineState state;
                try {
                    state = machines.distribute(NAMESPACE, machineBit, instanceId, ttl);
                } catch (MachineIdOverflowException allHeld) {
                    return false;
                }
                SlotLease acquired = machines.leaseOf(NAMESPACE, instanceId);
                if (acquired == null) {
                    throw new IllegalStateException("distribute returned without a lease");
                }
                lease = acquired;
                events.add(new LeaseEvent("acquired", owner, acquired, Instant.now()));
                snowflake =
                        new LeaseBoundSnowflakeId(
                                new MillisecondSnowflakeId(
                                        EPOCH,
                                        TIMESTAMP_BITS,
                                        machineBit,
                                        SnowflakeId.TOTAL_BIT - TIMESTAMP_BITS - machineBit,
                                        state.getMachineId()),
                                machines,
                                NAMESPACE,
                                instanceId);
                guardedAt = System.nanoTime();
            } else if (System.nanoTime() - guardedAt > ttl.dividedBy(3).toNanos()) {
                long sent = System.nanoTime();
                try {
                    machines.guard(NAMESPACE, instanceId, ttl);
                } catch (MachineIdLostException lost) {
                    SlotLease gone = lease;
                    if (gone != null) {
                        events.add(new LeaseEvent("lost", owner, gone, Instant.now()));
                    }
                    machines.revert(NAMESPACE, instanceId);
                    snowflake = null;
                    return false;
                }
                SlotLease renewed = machines.leaseOf(NAMESPACE, instanceId);
                if (sent - guardedAt > ttl.toNanos() && lease != null) {
                    // renewed, but sent after the last renewal's ttl had run out: by the holder's
                    // rule the instance could stamp nothing in between (its generation paused)
                    events.add(new LeaseEvent("lapsed", owner, lease, Instant.now()));
                }
                guardedAt = sent;
                if (renewed != null) {
                    lease = renewed;
                    events.add(new LeaseEvent("renewed", owner, renewed, Instant.now()));
                }
            }
            return true;
        }

        /** Up to 64 snowflake IDs, as many as the lease covers. */
        private void stampSnowflakes() {
            LeaseBoundSnowflakeId ids = snowflake;
            for (int i = 0; ids != null && i < 64; i++) {
                try {
                    snow.add(ids.generate());
                } catch (MachineIdLeaseException | ClockBackwardsException notNow) {
                    return; // outside the lease (e.g. not guarded in time): no ID, none twice
                }
                snowflakeCount.incrementAndGet();
            }
        }

        /** Segment IDs: 32 from each key's chain. */
        private void takeSegmentIds() {
            for (int k = 0; k < KEYS.size(); k++) {
                SegmentChainId chain = chains.get(k);
                for (int i = 0; i < 32; i++) {
                    segmentLogs.get(k).add(chain.generate());
                    segmentCount.incrementAndGet();
                }
            }
        }

        /** Where the released window ends, as the store says: the slot's next floor. */
        private Instant windowEnd(SlotLease released) {
            return store.slots().inspect(NAMESPACE).slots().stream()
                    .filter(v -> v.slot() == released.slot() && v.fence() == released.fence())
                    .map(SlotView::nextFloor)
                    .findFirst()
                    .orElse(released.ceiling());
        }

        private void closeStore() {
            try {
                for (CountingSegmentDistributor d : distributors) {
                    d.close(TimeUnit.SECONDS.toMillis(10));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                store.close();
            }
        }

        private void pause(Duration d) {
            try {
                Thread.sleep(d.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                stopping = true;
            }
        }
    }
}
