package io.cosid.store.zookeeper.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.cosid.store.LeaseGuard;
import io.cosid.store.LeaseLostException;
import io.cosid.store.SlotLease;
import io.cosid.store.Store;
import io.cosid.store.tck.HistoryChecker;
import io.cosid.store.tck.HistoryEvent;
import io.cosid.store.zookeeper.harness.ForkedEnsemble;
import io.cosid.store.zookeeper.harness.ZooKeeperServers;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Scenario 5: a holder paused past its expiry (a GC pause): the slot is taken, then the holder
 * wakes.
 */
@DisplayName("Fault 5: holder paused past its expiry")
class PausedHolderTest {

    private final ForkedEnsemble server = ForkedEnsemble.standalone(ZooKeeperServers.PRIMARY);

    @AfterEach
    void close() {
        server.close();
    }

    @Test
    @DisplayName(
            "its renew gets LeaseLostException, its guard stops it, and its window never overlaps"
                    + " the new holder's")
    void pausedHolder() {
        int rounds = Soak.scale(3, 200);
        Duration ttl = Duration.ofMillis(400);
        try (Load load = new Load()) {
            Store a = load.open(server.connectString(), Duration.ofSeconds(3));
            Store b = load.open(server.connectString(), Duration.ofSeconds(3));
            a.slots().define(Load.NAMESPACE, 1, Duration.ofMillis(100));
            for (int r = 0; r < rounds; r++) {
                long sent = System.nanoTime();
                SlotLease held =
                        load.recorder.acquire(a.slots(), Load.NAMESPACE, "holder-a", ttl, 1);
                LeaseGuard guard = LeaseGuard.of(held, sent);
                // the holder "pauses": it renews nothing; the store lets b in once the lease
                // expires
                SlotLease taken =
                        await("b to take the slot")
                                .atMost(Duration.ofSeconds(10))
                                .pollInterval(Duration.ofMillis(25))
                                .ignoreExceptions()
                                .until(
                                        () ->
                                                load.recorder.acquire(
                                                        b.slots(),
                                                        Load.NAMESPACE,
                                                        "holder-b",
                                                        ttl,
                                                        1),
                                        l -> true);
                assertThat(guard.isUsable())
                        .as("the holder's own monotonic clock already stopped it")
                        .isFalse();
                assertThatThrownBy(() -> load.recorder.renew(a.slots(), held))
                        .isInstanceOf(LeaseLostException.class);
                assertThat(taken.fence()).isGreaterThan(held.fence());
                assertThat(taken.floor()).isAfterOrEqualTo(held.ceiling());
                load.recorder.release(b.slots(), taken);
            }
            load.close();
            HistoryChecker.Report report = HistoryChecker.check(load.recorder.events());
            FaultFigures.report("paused-holder", load.recorder.events().size(), rounds, 0, report);
            report.assertValid();
            assertThat(load.recorder.events())
                    .filteredOn(e -> e instanceof HistoryEvent.LeaseGranted)
                    .hasSize(2 * rounds);
        }
    }
}
