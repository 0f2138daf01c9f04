package io.cosid.store.zookeeper.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cosid.store.Store;
import io.cosid.store.tck.HistoryChecker;
import io.cosid.store.zookeeper.harness.ForkedEnsemble;
import io.cosid.store.zookeeper.harness.ZooKeeperServers;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Scenario 1: the leader is SIGKILLed again and again while clients allocate ranges and churn
 * leases.
 */
@DisplayName("Fault 1: leader killed repeatedly under load")
class LeaderKillTest {

    private final ForkedEnsemble ensemble = ForkedEnsemble.start(ZooKeeperServers.PRIMARY, 3, 200);

    @AfterEach
    void close() {
        ensemble.close();
    }

    @Test
    @DisplayName("0 duplicates, 0 overlaps, and progress resumes after each election")
    void leaderKilled() {
        int kills = Soak.scale(2, 40);
        try (Load load = new Load()) {
            try (Store setup = load.open(ensemble.connectString(), Duration.ofSeconds(5))) {
                setup.slots().define(Load.NAMESPACE, 24, Duration.ofMillis(300));
            }
            // 8 clients (sessions) with 4 threads each (16 in the soak): their acquires coalesce
            // inside each store
            load.rangeClients(
                    8,
                    Soak.scale(4, 16),
                    ensemble.connectString(),
                    Duration.ofSeconds(2),
                    List.of("orders", "invoices"));
            load.leaseOwners(
                    32, 24, ensemble.connectString(), Duration.ofSeconds(2), Duration.ofSeconds(2));
            load.awaitProgress(200);
            // the soak runs until the size: 1,000,000 range acquires and 10,000 lease
            // terms, with kills
            long targetRanges = Soak.ON ? 1_000_000 : 0;
            long targetTerms = Soak.ON ? 10_000 : 0;
            int k = 0;
            long inFlightAtKills = 0;
            for (;
                    k < kills
                            || load.rangeAcquires.get() < targetRanges
                            || load.leaseGrants.get() < targetTerms;
                    k++) {
                int leader = ensemble.leader();
                long before = load.rangeWaste()[2];
                ensemble.kill(leader);
                // the values of the range writes the kill caught in flight: sent before it and not
                // answered, or sent to the dying leader while the kill was under way
                inFlightAtKills += Math.max(before, load.rangeWaste()[2]);
                await("a new leader")
                        .atMost(Duration.ofSeconds(30))
                        .pollInterval(Duration.ofMillis(50))
                        .until(() -> leaderOtherThan(leader));
                ensemble.restart(leader);
                load.awaitProgress(Soak.ON ? 50_000 : 200);
            }
            kills = k;
            load.close();
            HistoryChecker.Report report = HistoryChecker.check(load.recorder.events());
            FaultFigures.report(
                    "leader-kill", load.operations.get(), kills, load.failures.get(), report);
            report.assertValid();
            long[] waste = load.rangeWaste();
            System.out.printf(
                    "leader-kill skipped values: gaps=%d, attributed: unknown outcome <= %d, given"
                            + " up = %d; per kill: %.1f, against %.1f values of range writes in"
                            + " flight at a kill%n",
                    report.gaps(),
                    waste[0],
                    waste[1],
                    report.gaps() / (double) kills,
                    inFlightAtKills / (double) kills);
            assertThat(report.gaps())
                    .as(
                            "every skipped value has a cause: writes of unknown outcome (%d values"
                                    + " at most) or callers that gave up (%d)",
                            waste[0], waste[1])
                    .isLessThanOrEqualTo(waste[0] + waste[1]);
            assertThat(report.duplicates()).isZero();
            assertThat(report.overlaps()).isZero();
            assertThat(report.terms()).isGreaterThan(24);
        }
    }

    private boolean leaderOtherThan(int old) {
        try {
            return ensemble.leader() != old;
        } catch (IllegalStateException e) {
            return false;
        }
    }
}
