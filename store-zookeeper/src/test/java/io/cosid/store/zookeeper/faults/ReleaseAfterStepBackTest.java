package io.cosid.store.zookeeper.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.cosid.store.LeaseGuard;
import io.cosid.store.SlotLease;
import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.zookeeper.ZooKeeperStores;
import io.cosid.store.zookeeper.harness.ForkedEnsemble;
import io.cosid.store.zookeeper.harness.ZooKeeperServers;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A release after the store's clock stepped back (docs/contract.md, "Terms and leases"): the server
 * is restarted with its wall clock 120 s behind while two holders hold leases they stamped for a
 * while. Whether the holder declares what it stamped (through its {@link LeaseGuard}) or declares
 * nothing, the next holder's floor must lie above every timestamp the previous holder used. A
 * release bound taken from the store's (stepped back) clock put it 0.5 s after the grant, under
 * timestamps stamped up to 1 s after it.
 */
@DisplayName("Fault 7c: a release after the store's clock stepped back")
class ReleaseAfterStepBackTest {

    private static final String NS = "stepback";
    private static final Duration TTL = Duration.ofSeconds(20);

    @BeforeEach
    void needsFaketime() {
        assumeTrue(
                ForkedEnsemble.faketimeAvailable(),
                "Debian's faketime is not installed (.ci/run installs it)");
    }

    @Test
    @DisplayName("the next floor lies above every timestamp the holder stamped, declared or not")
    void nextFloorAboveStamps() {
        try (ForkedEnsemble server = ForkedEnsemble.start(ZooKeeperServers.PRIMARY, 1, 500);
                Store store = open(server.connectString())) {
            store.slots().define(NS, 2, Duration.ofMillis(500));
            LeaseGuard declaring = LeaseGuard.acquire(store.slots(), NS, "declaring", TTL);
            LeaseGuard plain = LeaseGuard.acquire(store.slots(), NS, "plain", TTL);
            Instant granted = declaring.lease().expiresAt().minus(TTL);
            AtomicLong declaringStamped = new AtomicLong(Long.MIN_VALUE);
            AtomicLong plainStamped = new AtomicLong(Long.MIN_VALUE);
            // both stamp the wall clock for a second past the grant, wherever their guards allow
            await().atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(2))
                    .until(
                            () -> {
                                long now = System.currentTimeMillis();
                                stamp(declaring, now, declaringStamped);
                                stamp(plain, now, plainStamped);
                                return now >= granted.plusSeconds(1).toEpochMilli();
                            });
            assertThat(declaringStamped.get())
                    .isGreaterThanOrEqualTo(granted.plusMillis(900).toEpochMilli());

            server.kill(1);
            server.restartWithClock(1, "-120s");
            Instant storeNow = store.slots().inspect(NS).now();
            assertThat(storeNow)
                    .as("the store's clock stepped back behind the grant")
                    .isBefore(granted);

            Instant declaredEnd = declaring.release(store.slots());
            Instant plainEnd = store.slots().release(plain.lease());
            assertThat(declaredEnd.toEpochMilli()).isGreaterThan(declaringStamped.get());
            assertThat(plainEnd).isEqualTo(plain.lease().ceiling());

            SlotLease afterDeclaring =
                    store.slots().acquire(NS, "next-1", TTL, declaring.lease().slot());
            SlotLease afterPlain = store.slots().acquire(NS, "next-2", TTL, plain.lease().slot());
            assertThat(afterDeclaring.floor().toEpochMilli()).isGreaterThan(declaringStamped.get());
            assertThat(afterPlain.floor().toEpochMilli()).isGreaterThan(plainStamped.get());
            assertThat(afterDeclaring.ceiling()).isAfterOrEqualTo(afterDeclaring.floor());
        }
    }

    private static void stamp(LeaseGuard guard, long now, AtomicLong highest) {
        if (guard.mayStamp(now)) {
            highest.accumulateAndGet(now, Math::max);
        }
    }

    private static Store open(String connectString) {
        return ZooKeeperStores.open(
                StoreConfig.of("stepback", "zookeeper")
                        .withTimeout(Duration.ofSeconds(10))
                        .withOption("connectString", connectString)
                        .withOption("sessionTimeout", "10s")
                        .withOption("retry.maxRetries", "29"));
    }
}
