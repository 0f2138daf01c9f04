package io.cosid.store.zookeeper.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.cosid.store.SlotLease;
import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.zookeeper.ZooKeeperStores;
import io.cosid.store.zookeeper.harness.ForkedEnsemble;
import io.cosid.store.zookeeper.harness.ZooKeeperServers;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The seed's operator note: slot nodes rebuilt by hand on a server whose clock lags. Lease times derive from
 * mtime, so the restored slot looks free too early, and a new holder's window can overlap timestamps the old
 * holder is still allowed to stamp. Following the precondition (a server that does not lag, or waiting one
 * ttl plus tolerance before any client starts) is safe.
 */
@DisplayName("Fault 7b: restoring slot nodes under a lagging clock")
class RestorePreconditionTest {

    private static final Duration TTL = Duration.ofSeconds(3);
    private static final Duration TOLERANCE = Duration.ofMillis(200);

    @BeforeEach
    void needsFaketime() {
        assumeTrue(ForkedEnsemble.faketimeAvailable(), "Debian's faketime is not installed (.ci/run installs it)");
    }

    @Test
    @DisplayName("restored under a clock 2s behind: the next holder's timestamps overlap the old holder's (the danger)")
    void laggingRestoreOverlaps() throws Exception {
        assertThat(scenario("-2s", Duration.ZERO)).as("overlapping timestamps (ms)").isGreaterThan(0);
    }

    @Test
    @DisplayName("restored on a server whose clock does not lag: no overlap")
    void restoreOnGoodClock() throws Exception {
        assertThat(scenario("+0s", Duration.ZERO)).isZero();
    }

    @Test
    @DisplayName("restored under a lagging clock, but clients wait one ttl plus tolerance: no overlap")
    void laggingRestoreAfterWaiting() throws Exception {
        assertThat(scenario("-2s", TTL.plus(TOLERANCE))).isZero();
    }

    /**
     * A holder takes the only slot on the original server and may stamp until its guard stops it; the nodes are
     * restored on a server with the given clock offset; after {@code wait} a new holder takes the slot there.
     * Returns how many milliseconds of timestamps both holders were allowed to stamp.
     */
    private long scenario(String restoreClock, Duration wait) throws Exception {
        try (ForkedEnsemble original = ForkedEnsemble.standalone(ZooKeeperServers.PRIMARY);
             ForkedEnsemble restored = ForkedEnsemble.startWithClocks(ZooKeeperServers.PRIMARY, 1, 500,
                     Map.of(1, restoreClock))) {
            Instant oldSent;
            SlotLease old;
            try (Store a = store(original)) {
                a.slots().define("ns", 1, TOLERANCE);
                oldSent = Instant.now();
                old = a.slots().acquire("ns", "old-holder", TTL);
            }
            // the old holder may stamp [floor, ceiling) until ttl has passed since it sent the request
            Instant oldStops = min(old.ceiling(), oldSent.plus(TTL));

            copyTree(original, restored, "/cosid");
            Instant restoredAt = Instant.now();
            await("the operator's wait").atMost(wait.plusSeconds(5)).pollInterval(Duration.ofMillis(20))
                    .until(() -> !Instant.now().isBefore(restoredAt.plus(wait)));

            try (Store c = store(restored)) {
                Instant newSent = Instant.now();
                SlotLease next = await("the slot to look free on the restored server").atMost(Duration.ofSeconds(20))
                        .pollInterval(Duration.ofMillis(50)).ignoreExceptions()
                        .until(() -> c.slots().acquire("ns", "new-holder", TTL), l -> true);
                assertThat(next.fence()).isGreaterThan(old.fence());
                // the new holder stamps real time from now on, inside its window, until its guard stops it
                Instant newStarts = max(next.floor(), newSent);
                Instant newStops = min(next.ceiling(), newSent.plus(TTL));
                Instant overlapStart = max(newStarts, old.floor());
                Instant overlapEnd = min(newStops, oldStops);
                long overlap = Math.max(0, Duration.between(overlapStart, overlapEnd).toMillis());
                System.out.println("restore under " + restoreClock + ", wait " + wait + ": old holder stamps until "
                        + oldStops + ", new holder from " + newStarts + " (floor " + next.floor() + "): overlap "
                        + overlap + "ms");
                return overlap;
            }
        }
    }

    private static Store store(ForkedEnsemble server) {
        return ZooKeeperStores.open(StoreConfig.of("restore", "zookeeper").withTimeout(Duration.ofSeconds(5))
                .withOption("connectString", server.connectString()));
    }

    /** An operator's restore: every node under the path written again, data only, on the other server. */
    private static void copyTree(ForkedEnsemble from, ForkedEnsemble to, String path) throws Exception {
        try (CuratorFramework source = SkewedClockTest.client(from.connectString());
             CuratorFramework target = SkewedClockTest.client(to.connectString())) {
            copy(source, target, path);
        }
    }

    private static void copy(CuratorFramework source, CuratorFramework target, String path) throws Exception {
        target.create().creatingParentsIfNeeded().forPath(path, source.getData().forPath(path));
        for (String child : source.getChildren().forPath(path)) {
            copy(source, target, path + "/" + child);
        }
    }

    private static Instant min(Instant a, Instant b) {
        return a.isBefore(b) ? a : b;
    }

    private static Instant max(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }
}
