package io.cosid.store.zookeeper.internal;

import io.cosid.store.RangeStore;
import io.cosid.store.SlotLeaseStore;
import io.cosid.store.Store;
import io.cosid.store.StoreAdmin;
import io.cosid.store.StoreConfig;
import io.cosid.store.StoreException;
import io.cosid.store.StoreObserver.Operation;
import io.cosid.store.spi.Deadline;
import io.cosid.store.spi.OperationNames;
import io.cosid.store.spi.Settlements;
import io.cosid.store.zookeeper.internal.connect.ClientClose;
import io.cosid.store.zookeeper.internal.connect.ClientOwnership;
import io.cosid.store.zookeeper.internal.ranges.RangeCounts;
import io.cosid.store.zookeeper.internal.ranges.RangeWaste;
import io.cosid.store.zookeeper.internal.ranges.ZooKeeperRangeStore;
import io.cosid.store.zookeeper.internal.slots.ZooKeeperSlotLeaseStore;
import io.cosid.store.zookeeper.internal.wire.CallWatchdog;
import io.cosid.store.zookeeper.internal.wire.ConnectionReports;
import io.cosid.store.zookeeper.internal.wire.NodePaths;
import io.cosid.store.zookeeper.internal.wire.Observations;
import io.cosid.store.zookeeper.internal.wire.RoundTrips;
import io.cosid.store.zookeeper.internal.wire.StoreLifecycle;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.Optional;
import org.apache.curator.framework.CuratorFramework;

/** Both ZooKeeper stores of one configured store, with one lifecycle and one client. */
@Singleton
public final class ZooKeeperStore implements Store {

    private final StoreConfig config;
    private final StoreLifecycle lifecycle;
    private final CallWatchdog watchdog;
    private final ZooKeeperRangeStore ranges;
    private final ZooKeeperSlotLeaseStore slots;
    private final CuratorFramework client;
    private final ClientOwnership ownership;
    private final RoundTrips roundTrips;
    private final NodePaths paths;
    private final Settlements settlements;
    private final ConnectionReports connectionReports;
    private final Observations observations;
    private final RangeWaste rangeWaste;
    private final RangeCounts rangeCounts;

    @Inject
    ZooKeeperStore(
            StoreConfig config,
            StoreLifecycle lifecycle,
            ZooKeeperRangeStore ranges,
            ZooKeeperSlotLeaseStore slots,
            CuratorFramework client,
            ClientOwnership ownership,
            RoundTrips roundTrips,
            NodePaths paths,
            Settlements settlements,
            ConnectionReports connectionReports,
            Observations observations,
            CallWatchdog watchdog,
            RangeWaste rangeWaste,
            RangeCounts rangeCounts) {
        this.rangeWaste = rangeWaste;
        this.rangeCounts = rangeCounts;
        this.connectionReports = connectionReports;
        this.watchdog = watchdog;
        this.observations = observations;
        this.config = config;
        this.lifecycle = lifecycle;
        this.ranges = ranges;
        this.slots = slots;
        this.client = client;
        this.ownership = ownership;
        this.roundTrips = roundTrips;
        this.paths = paths;
        this.settlements = settlements;
    }

    @Override
    public String name() {
        return config.name();
    }

    @Override
    public String type() {
        return ZooKeeperStoreAssembly.TYPE;
    }

    @Override
    public RangeStore ranges() {
        return ranges;
    }

    @Override
    public SlotLeaseStore slots() {
        return slots;
    }

    /** The request counters, for tests and benchmarks in this package. */
    RoundTrips roundTrips() {
        return roundTrips;
    }

    /** The values this store's range writes may have skipped, for tests in this package. */
    RangeWaste rangeWaste() {
        return rangeWaste;
    }

    /** What this store's range acquires did on contended keys, for tests in this package. */
    RangeCounts rangeCounts() {
        return rangeCounts;
    }

    @Override
    public Optional<StoreAdmin> admin() {
        return Optional.of(
                () -> {
                    lifecycle.start(Operation.PURGE, OperationNames.purge(config.name()));
                    try {
                        // the raw client: the root is an absolute path that already includes any
                        // Curator namespace
                        CuratorFramework raw = client.usingNamespace(null);
                        if (raw.checkExists().forPath(paths.root()) != null) {
                            raw.delete().deletingChildrenIfNeeded().forPath(paths.root());
                        }
                    } catch (Exception e) {
                        throw new StoreException(
                                "purge of store '"
                                        + config.name()
                                        + "' failed under "
                                        + paths.root(),
                                e);
                    }
                });
    }

    /**
     * Closes the store within one store timeout: settlements still under way (timed-out acquires
     * and releases) and then the store's own client share it; a client that is still closing then
     * (a server that does not answer) finishes in the background, and the log says so.
     */
    @Override
    public void close() {
        if (lifecycle.close()) {
            Deadline deadline = Deadline.start("close", lifecycle.timeout(), lifecycle.ticker());
            connectionReports.stop();
            settlements.close();
            watchdog.close();
            if (ownership == ClientOwnership.OWNED) {
                Duration left = Duration.ofNanos(Math.max(0, deadline.remainingNanos()));
                if (!ClientClose.within(client, left)) {
                    observations.log().clientStillClosing(config.name(), lifecycle.timeout());
                }
            }
        }
    }

    @Override
    public String toString() {
        return "ZooKeeperStore[" + config.name() + "]";
    }
}
