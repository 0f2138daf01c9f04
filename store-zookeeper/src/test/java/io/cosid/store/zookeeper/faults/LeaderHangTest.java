package io.cosid.store.zookeeper.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.StoreException;
import io.cosid.store.StoreTimeoutException;
import io.cosid.store.tck.HistoryChecker;
import io.cosid.store.zookeeper.ZooKeeperStores;
import io.cosid.store.zookeeper.harness.ForkedEnsemble;
import io.cosid.store.zookeeper.harness.ZooKeeperServers;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Scenario 2: the leader hangs (SIGSTOP) and comes back (SIGCONT). */
@DisplayName("Fault 2: leader hung, then resumed")
class LeaderHangTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(1);
    private final ForkedEnsemble ensemble = ForkedEnsemble.start(ZooKeeperServers.PRIMARY, 3, 200);

    @AfterEach
    void close() {
        ensemble.close();
    }

    @Test
    @DisplayName(
            "operations on the hung leader end with StoreTimeoutException inside the budget;"
                    + " nothing is duplicated")
    void leaderHung() {
        int hangs = Soak.scale(1, 20);
        long timeouts = 0;
        try (Load load = new Load()) {
            try (Store setup = load.open(ensemble.connectString(), Duration.ofSeconds(5))) {
                setup.slots().define(Load.NAMESPACE, 16, Duration.ofMillis(300));
            }
            load.rangeClients(4, ensemble.connectString(), TIMEOUT, List.of("orders"));
            load.leaseOwners(8, 16, ensemble.connectString(), TIMEOUT, Duration.ofSeconds(2));
            load.awaitProgress(100);
            for (int h = 0; h < hangs; h++) {
                int leader = ensemble.leader();
                // a client connected only to the leader, so its operations meet the hang head-on
                Store pinned =
                        ZooKeeperStores.open(
                                StoreConfig.of("pinned", "zookeeper")
                                        .withTimeout(TIMEOUT)
                                        .withOption(
                                                "connectString",
                                                "127.0.0.1:" + ensemble.clientPort(leader))
                                        .withOption("sessionTimeout", "6s"));
                try {
                    // the pinned client must work before the hang; its last failure is named if it
                    // never does
                    AtomicReference<StoreException> last = new AtomicReference<>();
                    try {
                        await("the pinned client to work")
                                .atMost(Duration.ofSeconds(30))
                                .ignoreExceptionsInstanceOf(StoreException.class)
                                .until(
                                        () -> {
                                            try {
                                                return load.recorder.acquire(
                                                        pinned.ranges(), "orders", 10);
                                            } catch (StoreException e) {
                                                last.set(e);
                                                throw e;
                                            }
                                        },
                                        r -> true);
                    } catch (ConditionTimeoutException e) {
                        throw new AssertionError(
                                "a client pinned to leader "
                                        + leader
                                        + " did not complete an acquire"
                                        + " in 30 s before hang "
                                        + h
                                        + "; its last failure: "
                                        + last.get(),
                                last.get());
                    }
                    ensemble.pause(leader);
                    for (int i = 0; i < 3; i++) {
                        long start = System.nanoTime();
                        try {
                            load.recorder.acquire(pinned.ranges(), "orders", 10);
                        } catch (StoreTimeoutException e) {
                            timeouts++;
                        } catch (StoreException e) {
                            // unavailable: also within the budget
                        }
                        assertThat(Duration.ofNanos(System.nanoTime() - start))
                                .as("an operation ends within its budget")
                                .isLessThan(TIMEOUT.plusMillis(600));
                    }
                } finally {
                    ensemble.resume(leader);
                    pinned.close();
                }
                // every member back in its role: the next round pins a client to the leader it
                // finds
                await("the ensemble to serve again")
                        .atMost(Duration.ofSeconds(30))
                        .pollInterval(Duration.ofMillis(50))
                        .ignoreExceptions()
                        .until(ensemble::allServing);
                load.awaitProgress(100);
            }
            load.close();
            HistoryChecker.Report report = HistoryChecker.check(load.recorder.events());
            FaultFigures.report(
                    "leader-hang",
                    load.operations.get(),
                    hangs,
                    load.failures.get() + timeouts,
                    report);
            report.assertValid();
            assertThat(timeouts).as("the hang was felt as timeouts").isGreaterThan(0);
        }
    }
}
