package io.cosid.store.zookeeper.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.cosid.store.SlotLease;
import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.StoreTimeoutException;
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
 * The restore precondition of docs/contract.md: slot nodes rebuilt by hand on a server whose clock
 * lags. Lease times derive from mtime, so the restored slot looks free too early, and a new
 * holder's window can overlap timestamps the old holder is still allowed to stamp. Following the
 * precondition (a server that does not lag, or waiting one ttl plus tolerance before any client
 * starts) is safe.
 */
@DisplayName("Fault 7b: restoring slot nodes under a lagging clock")
class RestorePreconditionTest {

    private static final Duration TTL = Duration.ofSeconds(6);

    /** When the old holder renews, after its acquire: its renewed window lives in mtime only. */
    private static final Duration RENEW_AFTER = Duration.ofSeconds(3);

    private static final Duration TOLERANCE = Duration.ofMillis(200);

    @BeforeEach
    void needsFaketime() {
        assumeTrue(
                ForkedEnsemble.faketimeAvailable(),
                "Debian's faketime is not installed (.ci/run installs it)");
    }

    /**
     * The overlap is the part of the renewed window that only the renew's mtime held ({@link
     * #RENEW_AFTER}), or the lag less the time from the renew to the new holder's acquire (copying
     * the tree, opening a store) if that is less; less again the acquire's own delay. On a machine
     * whose CPUs are saturated that time passed 2 s and reached 5 s, so the lag here is larger.
     */
    @Test
    @DisplayName(
            "restored under a clock 10s behind: the next holder's window starts inside the old"
                    + " holder's (the danger)")
    void laggingRestoreOverlaps() throws Exception {
        Outcome o = scenario("-10s", Duration.ZERO);
        assertThat(Duration.between(o.next.floor(), o.old.ceiling()))
                .as("window overlap")
                .isPositive();
    }

    @Test
    @DisplayName(
            "restored on a server whose clock does not lag: the next window starts at or after the"
                    + " old ceiling")
    void restoreOnGoodClock() throws Exception {
        Outcome o = scenario("+0s", Duration.ZERO);
        assertThat(o.next.floor()).isAfterOrEqualTo(o.old.ceiling());
    }

    @Test
    @DisplayName(
            "restored under a lagging clock, clients started one ttl plus tolerance later: nothing"
                    + " below the old ceiling is usable")
    void laggingRestoreAfterWaiting() throws Exception {
        Outcome o = scenario("-2s", TTL.plus(TOLERANCE));
        assertThat(o.firstUsable).isAfterOrEqualTo(o.old.ceiling());
    }

    /**
     * The old holder's last lease, the next holder's lease, and the first timestamp the next holder
     * may stamp.
     */
    private record Outcome(SlotLease old, SlotLease next, Instant firstUsable) {}

    /**
     * A holder takes the only slot on the original server and renews it once (so its latest window
     * is only in the write's mtime, not in the data); the nodes are restored on a server with the
     * given clock offset; after {@code wait} a new holder takes the slot there once it looks free.
     */
    private Outcome scenario(String restoreClock, Duration wait) throws Exception {
        try (ForkedEnsemble original = ForkedEnsemble.standalone(ZooKeeperServers.PRIMARY);
                ForkedEnsemble restored =
                        ForkedEnsemble.startWithClocks(
                                ZooKeeperServers.PRIMARY, 1, 500, Map.of(1, restoreClock))) {
            SlotLease old;
            try (Store a = store(original)) {
                // the setup, not the scenario: a server just started on a busy machine may answer
                // its first writes late, so the (idempotent) define is tried again until it lands
                await("the namespace defined on the original server")
                        .atMost(Duration.ofMinutes(1))
                        .ignoreExceptionsInstanceOf(StoreTimeoutException.class)
                        .until(
                                () -> {
                                    a.slots().define("ns", 1, TOLERANCE);
                                    return true;
                                });
                SlotLease first = a.slots().acquire("ns", "old-holder", TTL);
                Instant renewAt = first.expiresAt().minus(TTL).plus(RENEW_AFTER);
                await("the renew's time to come")
                        .atMost(RENEW_AFTER.plusSeconds(5))
                        .pollInterval(Duration.ofMillis(20))
                        .until(() -> !Instant.now().isBefore(renewAt));
                old = a.slots().renew(first);
            }
            copyTree(original, restored, "/cosid");
            Instant restoredAt = Instant.now();
            await("the operator's wait")
                    .atMost(wait.plusSeconds(5))
                    .pollInterval(Duration.ofMillis(20))
                    .until(() -> !Instant.now().isBefore(restoredAt.plus(wait)));
            try (Store c = store(restored)) {
                Instant[] sent = new Instant[1];
                SlotLease next =
                        await("the slot to look free on the restored server")
                                .atMost(Duration.ofSeconds(20))
                                .pollInterval(Duration.ofMillis(50))
                                .ignoreExceptions()
                                .until(
                                        () -> {
                                            sent[0] = Instant.now();
                                            return c.slots().acquire("ns", "new-holder", TTL);
                                        },
                                        l -> true);
                assertThat(next.fence()).isGreaterThan(old.fence());
                Instant firstUsable = max(next.floor(), sent[0]);
                System.out.println(
                        "restore under "
                                + restoreClock
                                + ", wait "
                                + wait
                                + ": old window ["
                                + old.floor()
                                + ", "
                                + old.ceiling()
                                + "), new window ["
                                + next.floor()
                                + ", "
                                + next.ceiling()
                                + "), new holder's first usable timestamp "
                                + firstUsable);
                return new Outcome(old, next, firstUsable);
            }
        }
    }

    private static Store store(ForkedEnsemble server) {
        return ZooKeeperStores.open(
                StoreConfig.of("restore", "zookeeper")
                        .withTimeout(Duration.ofSeconds(5))
                        .withOption("connectString", server.connectString()));
    }

    /**
     * An operator's restore: every node under the path written again, data only, on the other
     * server.
     */
    private static void copyTree(ForkedEnsemble from, ForkedEnsemble to, String path)
            throws Exception {
        try (CuratorFramework source = Load.curatorClient(from.connectString());
                CuratorFramework target = Load.curatorClient(to.connectString())) {
            copy(source, target, path);
        }
    }

    private static void copy(CuratorFramework source, CuratorFramework target, String path)
            throws Exception {
        target.create().creatingParentsIfNeeded().forPath(path, source.getData().forPath(path));
        for (String child : source.getChildren().forPath(path)) {
            copy(source, target, path + "/" + child);
        }
    }

    private static Instant max(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }
}
