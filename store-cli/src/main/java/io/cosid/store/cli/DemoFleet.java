package io.cosid.store.cli;

import io.cosid.store.LeaseGuard;
import io.cosid.store.LeaseLostException;
import io.cosid.store.Range;
import io.cosid.store.SlotLease;
import io.cosid.store.SlotsExhaustedException;
import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.StoreException;
import io.cosid.store.StoreTimeoutException;
import io.cosid.store.StoreUnavailableException;
import io.cosid.store.Stores;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The demo's simulated instances. Each has its own store (its own client session, as a separate
 * process would), holds a slot lease with {@link LeaseGuard}, renews it, and generates two kinds of
 * IDs: snowflake-style IDs (timestamp, slot, sequence) only for timestamps inside its lease's
 * {@code [floor, ceiling)}, and segment IDs from ranges of two keys. Every lease event and every ID
 * is recorded.
 */
final class DemoFleet {

    static final String NAMESPACE = "demo-workers";
    static final List<String> KEYS = List.of("orders", "invoices");

    /** The snowflake epoch: 2026-01-01T00:00:00Z. */
    static final long EPOCH = 1_767_225_600_000L;

    private static final int SEQUENCE_BITS = 12;
    private static final int SLOT_BITS = 10;

    /**
     * A lease event as an instance saw it; for a release, {@code at} is the window's end the store
     * returned.
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

    DemoFleet(StoreConfig config, Duration ttl) {
        this.config = config;
        this.ttl = ttl;
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

    /** One simulated instance, on its own thread and its own store. */
    final class Instance implements Runnable {
        final String owner;
        final Thread thread;
        private final Store store;
        private final LongLog snow;
        private final List<LongLog> segmentLogs;
        private volatile boolean stopping;
        private volatile boolean crash;
        private LeaseGuard guard;
        private long lastTimestamp = -1;
        private int sequence;
        private final Range[] ranges = new Range[KEYS.size()];
        private final long[] next = new long[KEYS.size()];

        Instance(String owner, Store store, LongLog snow, List<LongLog> segmentLogs) {
            this.owner = owner;
            this.store = store;
            this.snow = snow;
            this.segmentLogs = segmentLogs;
            this.thread = new Thread(this, owner);
        }

        /** Stops gracefully: releases the lease. */
        void stop() {
            stopping = true;
            join();
        }

        /** Stops as a crash would: no release; the lease expires in the store. */
        void crash() {
            crash = true;
            stopping = true;
            join();
        }

        int slot() {
            LeaseGuard g = guard;
            return g == null ? -1 : g.lease().slot();
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
                        if (!holdLease()) {
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
                if (!crash && guard != null) {
                    Instant windowEnd = guard.release(store.slots());
                    events.add(new LeaseEvent("released", owner, guard.lease(), windowEnd));
                } else if (guard != null) {
                    events.add(new LeaseEvent("crashed", owner, guard.lease(), Instant.now()));
                }
            } catch (StoreTimeoutException | StoreUnavailableException e) {
                timeout(owner + " (at its end): " + e.getMessage());
            } catch (StoreException | IllegalStateException e) {
                error(owner + ": " + e.getMessage());
            } finally {
                store.close();
            }
        }

        /**
         * Acquires when it has no lease, renews in the second half of the ttl; false while it holds
         * none.
         */
        private boolean holdLease() {
            try {
                if (guard == null) {
                    guard = LeaseGuard.acquire(store.slots(), NAMESPACE, owner, ttl);
                    events.add(new LeaseEvent("acquired", owner, guard.lease(), Instant.now()));
                } else if (guard.remaining().compareTo(ttl.dividedBy(2)) < 0) {
                    guard = guard.renew(store.slots());
                    events.add(new LeaseEvent("renewed", owner, guard.lease(), Instant.now()));
                }
                return true;
            } catch (SlotsExhaustedException e) {
                return false;
            } catch (LeaseLostException e) {
                events.add(new LeaseEvent("lost", owner, guard.lease(), Instant.now()));
                guard = null;
                return false;
            }
        }

        /**
         * Snowflake IDs: only timestamps inside the lease's window, never one twice on this slot.
         */
        private void stampSnowflakes() {
            long now = System.currentTimeMillis();
            if (!guard.mayStamp(now) || now < lastTimestamp) {
                return;
            }
            if (now != lastTimestamp) {
                lastTimestamp = now;
                sequence = 0;
            }
            long slot = guard.lease().slot();
            for (int i = 0; i < 64 && sequence < (1 << SEQUENCE_BITS); i++) {
                snow.add(
                        ((now - EPOCH) << (SLOT_BITS + SEQUENCE_BITS))
                                | (slot << SEQUENCE_BITS)
                                | sequence++);
                snowflakeCount.incrementAndGet();
            }
        }

        /** Segment IDs: values of the ranges this instance reserved, one after another. */
        private void takeSegmentIds() {
            for (int k = 0; k < KEYS.size(); k++) {
                for (int i = 0; i < 32; i++) {
                    if (ranges[k] == null || next[k] == ranges[k].end()) {
                        ranges[k] = store.ranges().acquire(KEYS.get(k), 100);
                        next[k] = ranges[k].start();
                        rangeCount.incrementAndGet();
                    }
                    segmentLogs.get(k).add(next[k]++);
                    segmentCount.incrementAndGet();
                }
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
