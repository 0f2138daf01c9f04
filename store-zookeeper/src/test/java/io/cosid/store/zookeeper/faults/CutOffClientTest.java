package io.cosid.store.zookeeper.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.cosid.store.LeaseLostException;
import io.cosid.store.Range;
import io.cosid.store.SlotLease;
import io.cosid.store.SlotView;
import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.StoreException;
import io.cosid.store.StoreTimeoutException;
import io.cosid.store.StoreUnavailableException;
import io.cosid.store.tck.HistoryChecker;
import io.cosid.store.tck.HistoryRecorder;
import io.cosid.store.zookeeper.ZooKeeperStores;
import io.cosid.store.zookeeper.harness.ForkedEnsemble;
import io.cosid.store.zookeeper.harness.ZooKeeperProxy;
import io.cosid.store.zookeeper.harness.ZooKeeperServers;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Scenario 3: a client cut off mid-write by a TCP proxy: the server applies the write and the reply
 * never arrives, or the write itself never arrives. A range write of unknown outcome is sent again
 * as it was (it lands only if the first did not) and otherwise becomes a gap; lease writes are read
 * back; nothing is duplicated.
 */
@DisplayName("Fault 3: client cut off mid-write")
class CutOffClientTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(3);
    private final ForkedEnsemble server = ForkedEnsemble.standalone(ZooKeeperServers.PRIMARY);
    private final ZooKeeperProxy proxy = new ZooKeeperProxy(server.clientPort(1));
    private final HistoryRecorder recorder = new HistoryRecorder();
    private final Store store =
            ZooKeeperStores.open(
                    StoreConfig.of("cutoff", "zookeeper")
                            .withTimeout(TIMEOUT)
                            .withOption("connectString", proxy.connectString())
                            .withOption("sessionTimeout", "10s")
                            .withOption("retry.baseSleepTime", "20ms")
                            .withOption("retry.maxRetries", "29"));

    @AfterEach
    void close() {
        store.close();
        proxy.close();
        server.close();
    }

    @Test
    @DisplayName(
            "dropped replies: a range write becomes a gap, a lease write is read back, nothing is"
                    + " duplicated")
    void droppedReplies() {
        int rounds = Soak.scale(3, 300);
        store.slots().define("workers", 2, Duration.ofMillis(100));
        // the key's first write creates its node, the second its line of waiting writers: from then
        // on a range write is the one multi whose reply is dropped below
        recorder.acquire(store.ranges(), "orders", 10);
        for (int r = 0; r < rounds; r++) {
            Range before = recorder.acquire(store.ranges(), "orders", 10);
            // a range write is one multi: the key's new value and a check of its line's version
            proxy.dropReplyToNext(ZooKeeperProxy.MULTI);
            Range after = recorder.acquire(store.ranges(), "orders", 10);
            assertThat(after.start())
                    .as("the write whose reply was lost is abandoned: a gap of one range")
                    .isEqualTo(before.end() + 10);

            proxy.dropReplyToNext(ZooKeeperProxy.MULTI);
            SlotLease lease =
                    recorder.acquire(
                            store.slots(), "workers", "holder-" + r, Duration.ofSeconds(20), 2);
            SlotLease seen =
                    store.slots().inspect("workers").slots().stream()
                            .filter(v -> v.slot() == lease.slot())
                            .findFirst()
                            .map(
                                    v ->
                                            new SlotLease(
                                                    "workers",
                                                    v.slot(),
                                                    v.ownerKey(),
                                                    v.fence(),
                                                    v.incarnation(),
                                                    v.floor(),
                                                    v.expiresAt(),
                                                    v.ceiling(),
                                                    v.ttl(),
                                                    lease.tolerance()))
                            .orElseThrow();
            assertThat(seen.fence())
                    .as("the read-back found its own term; no second term")
                    .isEqualTo(lease.fence());
            assertThat(seen.ownerKey()).isEqualTo(lease.ownerKey());

            proxy.dropReplyToNext(ZooKeeperProxy.SET_DATA);
            SlotLease renewed = recorder.renew(store.slots(), lease);
            assertThat(renewed.fence()).isEqualTo(lease.fence());
            recorder.release(store.slots(), renewed);
        }
        assertThat(proxy.dropped()).isGreaterThanOrEqualTo(3 * rounds);
        HistoryChecker.Report report = HistoryChecker.check(recorder.events());
        FaultFigures.report(
                "cut-off (dropped replies)", recorder.events().size(), proxy.dropped(), 0, report);
        report.assertValid();
        assertThat(report.gaps()).isEqualTo(10L * rounds);
    }

    @Test
    @DisplayName(
            "a release that landed, whose reply was lost while the next holder took the slot, is of"
                    + " unknown outcome, not lost")
    void releaseLandedWhileSlotTaken() {
        store.slots().define("solo", 1, Duration.ofMillis(100));
        SlotLease lease =
                recorder.acquire(store.slots(), "solo", "first", Duration.ofSeconds(20), 1);
        proxy.dropReplyToNextThenBlackhole(ZooKeeperProxy.SET_DATA);
        // the holder stamped nothing: it declares the floor, so a release that landed shows in the
        // next floor
        CompletableFuture<Instant> release =
                CompletableFuture.supplyAsync(
                        () -> recorder.release(store.slots(), lease, lease.floor()));
        await("the release's reply to be dropped")
                .atMost(Duration.ofSeconds(5))
                .until(() -> proxy.dropped() == 1);
        try (Store other =
                ZooKeeperStores.open(
                        StoreConfig.of("other", "zookeeper")
                                .withTimeout(TIMEOUT)
                                .withOption("connectString", server.connectString()))) {
            SlotLease next =
                    recorder.acquire(other.slots(), "solo", "second", Duration.ofSeconds(20), 1);
            assertThat(next.fence())
                    .as("the release landed: the slot was free at once")
                    .isEqualTo(lease.fence() + 1);
            assertThat(next.floor())
                    .as("the next floor is the declared release bound, below the old ceiling")
                    .isEqualTo(lease.floor())
                    .isBefore(lease.ceiling());
            proxy.blackhole(false);
            assertThatThrownBy(release::join)
                    .cause()
                    .as(
                            "LeaseLostException would say nothing was written; this release was"
                                    + " applied")
                    .isInstanceOf(StoreUnavailableException.class)
                    .isNotInstanceOf(LeaseLostException.class)
                    .hasMessageContaining("outcome is unknown")
                    .hasCauseInstanceOf(LeaseLostException.class);
        }
        HistoryChecker.Report report = HistoryChecker.check(recorder.events());
        FaultFigures.report(
                "cut-off (release landed, slot taken)",
                recorder.events().size(),
                proxy.dropped(),
                1,
                report);
        report.assertValid();
        assertThat(report.overlaps()).isZero();
    }

    @Test
    @DisplayName(
            "an acquire that timed out after its write landed leaves no lease behind: the store"
                    + " releases it")
    void timedOutAcquireSettled() {
        store.slots().define("settle", 1, Duration.ofMillis(100));
        proxy.dropReplyToNextThenBlackhole(ZooKeeperProxy.MULTI);
        assertThatThrownBy(() -> store.slots().acquire("settle", "gave-up", Duration.ofSeconds(60)))
                .as("the caller is told 'timeout' within its budget")
                .isInstanceOf(StoreTimeoutException.class);
        assertThat(proxy.dropped())
                .as("the acquire's write landed; its reply was dropped")
                .isEqualTo(1);
        proxy.blackhole(false);
        proxy.resetAll();
        try (Store other =
                ZooKeeperStores.open(
                        StoreConfig.of("other", "zookeeper")
                                .withTimeout(TIMEOUT)
                                .withOption("connectString", server.connectString()))) {
            SlotView orphan = other.slots().inspect("settle").slots().get(0);
            assertThat(orphan.ownerKey()).as("the timed-out write did land").isEqualTo("gave-up");
            await("the store to release the term nobody holds, long before its 60 s ttl")
                    .atMost(Duration.ofSeconds(30))
                    .until(() -> other.slots().inspect("settle").slots().get(0).released());
            SlotLease next = other.slots().acquire("settle", "next", Duration.ofSeconds(60));
            assertThat(next.fence()).isEqualTo(orphan.fence() + 1);
            assertThat(next.floor())
                    .as("nobody stamped under the orphan: its whole window is handed back")
                    .isEqualTo(orphan.floor());
        }
    }

    @Test
    @DisplayName(
            "a release that timed out is finished by the store once the connection is back: the"
                    + " slot is free before its ttl")
    void timedOutReleaseFinished() {
        store.slots().define("finish", 1, Duration.ofMillis(100));
        SlotLease lease =
                store.slots()
                        .renew(store.slots().acquire("finish", "holder", Duration.ofSeconds(60)));
        proxy.blackhole(true);
        assertThatThrownBy(() -> store.slots().release(lease, lease.floor()))
                .isInstanceOfAny(StoreTimeoutException.class, StoreUnavailableException.class);
        proxy.blackhole(false);
        proxy.resetAll();
        try (Store other =
                ZooKeeperStores.open(
                        StoreConfig.of("other", "zookeeper")
                                .withTimeout(TIMEOUT)
                                .withOption("connectString", server.connectString()))) {
            await("the store to finish the release")
                    .atMost(Duration.ofSeconds(30))
                    .until(() -> other.slots().inspect("finish").slots().get(0).released());
            assertThat(other.slots().acquire("finish", "next", Duration.ofSeconds(60)).floor())
                    .as("the declared bound")
                    .isEqualTo(lease.floor());
        }
    }

    @Test
    @DisplayName(
            "a range write lost on its way is sent again once connected: no gap, nothing"
                    + " duplicated")
    void lostRequestResent() {
        int rounds = Soak.scale(3, 300);
        // the key's first write creates its node, the second its line of waiting writers: from then
        // on a range write is one multi, the one lost below
        recorder.acquire(store.ranges(), "orders", 10);
        for (int r = 0; r < rounds; r++) {
            Range before = recorder.acquire(store.ranges(), "orders", 10);
            int lost = proxy.dropped();
            proxy.loseNextRequest(ZooKeeperProxy.MULTI);
            Range after = recorder.acquire(store.ranges(), "orders", 10);
            assertThat(proxy.dropped()).as("the write was lost on its way").isEqualTo(lost + 1);
            assertThat(after.start())
                    .as(
                            "the server never saw the write, so the copy sent after the reconnect"
                                    + " landed it: no gap")
                    .isEqualTo(before.end());
        }
        HistoryChecker.Report report = HistoryChecker.check(recorder.events());
        report.assertValid();
        assertThat(report.gaps()).isZero();
    }

    @Test
    @DisplayName(
            "blackholed: operations end with StoreTimeoutException in the budget; after reset, work"
                    + " resumes")
    void blackholeAndReset() {
        Range before = recorder.acquire(store.ranges(), "orders", 10);
        proxy.blackhole(true);
        long start = System.nanoTime();
        assertThatThrownBy(() -> recorder.acquire(store.ranges(), "orders", 10))
                .isInstanceOf(StoreTimeoutException.class);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(TIMEOUT.plusMillis(700));
        proxy.blackhole(false);
        proxy.resetAll();
        Range after =
                await("work to resume")
                        .atMost(Duration.ofSeconds(30))
                        .ignoreExceptionsInstanceOf(StoreException.class)
                        .until(() -> recorder.acquire(store.ranges(), "orders", 10), x -> true);
        assertThat(after.start()).isGreaterThanOrEqualTo(before.end());
        HistoryChecker.Report report = HistoryChecker.check(recorder.events());
        FaultFigures.report("cut-off (blackhole, reset)", recorder.events().size(), 2, 0, report);
        report.assertValid();
    }
}
