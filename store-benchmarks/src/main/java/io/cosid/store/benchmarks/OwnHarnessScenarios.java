package io.cosid.store.benchmarks;

import io.cosid.store.Store;
import io.cosid.store.inmemory.InMemoryStores;
import io.cosid.store.zookeeper.harness.ForkedEnsemble;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * The side-by-side harness's scenarios whose measuring lives in a class of its own: CosId's segment
 * generator ({@link CosIdSegments}), leader failover ({@link Failover}) and the in-memory store.
 */
final class OwnHarnessScenarios {

    private final SideBySide h;

    OwnHarnessScenarios(SideBySide h) {
        this.h = h;
    }

    void cosIdSegments() {
        try {
            CosIdSegments cosId =
                    new CosIdSegments(
                            h.connectString(),
                            h.counters(),
                            h.settings().warmup(),
                            h.settings().run());
            List<Map<CosIdSegments.Kind, CosIdSegments.Run>> medians = cosId.measure();
            List<String> cosIdVerdicts = new ArrayList<>();
            h.publish(CosIdSegments.table(medians, cosIdVerdicts));
            h.publish(cosId.bursts());
            h.addVerdicts(cosIdVerdicts);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (Exception e) {
            throw new IllegalStateException("the CosId segment benchmark failed: " + e, e);
        }
    }

    /**
     * A 3-node ensemble of its own (tick 500 ms, so sessions outlive an election); the leader is
     * SIGKILLed {@code --kills} times under load.
     */
    void failover() {
        int kills = h.settings().kills();
        Table table =
                new Table(
                        "Leader of a 3-node ensemble SIGKILLed "
                                + kills
                                + " times under load: time from each kill to each client's next"
                                + " success (each client its own session, default retry policy)",
                        "client",
                        "kills",
                        "median ms",
                        "max ms",
                        "median vs bare",
                        "max vs bare",
                        "failed operations");
        RangeChecks checks = new RangeChecks();
        try (ForkedEnsemble ensemble = ForkedEnsemble.start(h.settings().version(), 3, 500);
                Failover run = new Failover(ensemble)) {
            String cs = ensemble.connectString();
            Contender.Policy policy = Contender.Policy.DEFAULT;
            run.bareSetData(Contender.curator(cs, policy));
            run.distributedAtomicLong(Contender.curator(cs, policy), policy);
            run.rangeAcquire(Contender.Ours.openStore(cs, policy), checks);
            run.leaseRenew(Contender.Ours.openStore(cs, policy));
            run.run(kills);
            checks.requireDisjoint("failover");
            rows(table, run);
        } catch (Exception e) {
            throw new IllegalStateException("the failover scenario failed", e);
        }
        h.publish(table);
    }

    /** Each client's gaps after the kills, against the bare setData client's. */
    private void rows(Table table, Failover run) {
        List<Double> bare = Failover.gapsMillis(run.workers().get(0));
        for (Failover.Worker w : run.workers()) {
            List<Double> gaps = Failover.gapsMillis(w);
            double medianRatio = SideBySide.median(gaps) / SideBySide.median(bare);
            double maxRatio = Collections.max(gaps) / Collections.max(bare);
            table.row(
                    w.name,
                    gaps.size(),
                    SideBySide.median(gaps),
                    Collections.max(gaps),
                    medianRatio,
                    maxRatio,
                    w.failures());
            if (w.name.startsWith("cosid-store")) {
                h.verdict(
                        "failover: "
                                + w.name
                                + " median time to next success vs bare setData, at most 1.2x",
                        medianRatio,
                        "x",
                        medianRatio <= 1.2);
                h.verdict(
                        "failover: "
                                + w.name
                                + " max time to next success vs bare setData, at most 1.2x",
                        maxRatio,
                        "x",
                        maxRatio <= 1.2);
            }
        }
    }

    void inMemory() {
        Table table =
                new Table(
                        "In-memory store, one thread (JMH has the careful figures:"
                                + " store-benchmarks/target/jmh.json)",
                        "operation",
                        "ops",
                        "ops/s");
        try (Store store = InMemoryStores.open()) {
            for (int round = 0; round < 2; round++) { // the first round warms up
                long count = 0;
                long start = System.nanoTime();
                long end = start + h.settings().run().toNanos();
                long now = start;
                while (now < end) {
                    for (int i = 0; i < 1000; i++) {
                        store.ranges().acquire("orders", SideBySide.STEP);
                    }
                    count += 1000;
                    now = System.nanoTime();
                }
                if (round == 1) {
                    double perSecond = count * 1e9 / (now - start);
                    table.row("range acquire", count, perSecond);
                    h.verdict(
                            "in-memory range acquires per second, one thread (millions)",
                            perSecond / 1e6,
                            "M",
                            perSecond >= 1e6);
                }
            }
        }
        h.publish(table);
    }
}
