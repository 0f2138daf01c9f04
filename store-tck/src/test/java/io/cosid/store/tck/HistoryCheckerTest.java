package io.cosid.store.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cosid.store.Range;
import io.cosid.store.SlotLease;
import io.cosid.store.tck.HistoryEvent.LeaseGranted;
import io.cosid.store.tck.HistoryEvent.LeaseReleased;
import io.cosid.store.tck.HistoryEvent.LeaseRenewed;
import io.cosid.store.tck.HistoryEvent.RangeGranted;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

@DisplayName("HistoryChecker")
class HistoryCheckerTest {

    private static final Instant T0 = Instant.parse("2026-12-02T00:00:00Z");
    private static final Duration TTL = Duration.ofSeconds(10);
    private static final Duration TOL = Duration.ofSeconds(1);

    /** A lease written at store time {@code writtenAt} (seconds after T0). */
    private static SlotLease lease(
            int slot, String owner, long fence, Instant floor, long writtenAt) {
        Instant expires = T0.plusSeconds(writtenAt).plus(TTL);
        return new SlotLease(
                "ns", slot, owner, fence, 1, floor, expires, expires.plus(TOL), TTL, TOL);
    }

    @Nested
    @DisplayName("on ranges")
    class Ranges {

        @Test
        @DisplayName("accepts disjoint ranges and counts gaps")
        void valid() {
            HistoryChecker.Report report =
                    HistoryChecker.check(
                                    List.of(
                                            new RangeGranted(new Range("k", 0, 10), 1, 2),
                                            new RangeGranted(new Range("k", 15, 20), 3, 4),
                                            new RangeGranted(new Range("j", 0, 10), 5, 6)))
                            .assertValid();
            assertThat(report.ranges()).isEqualTo(3);
            assertThat(report.values()).isEqualTo(25);
            assertThat(report.gaps()).isEqualTo(5);
            assertThat(report.duplicates()).isZero();
        }

        @Test
        @DisplayName("reports values handed out twice")
        void duplicates() {
            HistoryChecker.Report report =
                    HistoryChecker.check(
                            List.of(
                                    new RangeGranted(new Range("k", 0, 10), 1, 2),
                                    new RangeGranted(new Range("k", 8, 12), 3, 4)));
            assertThat(report.duplicates()).isEqualTo(2);
            assertThatThrownBy(report::assertValid)
                    .isInstanceOf(AssertionError.class)
                    .hasMessageContaining("duplicate values");
        }
    }

    @Nested
    @DisplayName("on leases")
    class Leases {

        @Test
        @DisplayName("accepts a takeover after expiry and a release followed by a new term")
        void valid() {
            SlotLease a = lease(0, "a", 1, Instant.EPOCH, 0);
            SlotLease b = lease(0, "b", 2, a.ceiling(), 10);
            SlotLease c = lease(0, "c", 3, T0.plusSeconds(12), 13);
            HistoryChecker.Report report =
                    HistoryChecker.check(
                                    List.of(
                                            new LeaseGranted(a, 4, 1, 2),
                                            new LeaseGranted(b, 4, 3, 4),
                                            new LeaseReleased(b, T0.plusSeconds(12), 5, 6),
                                            new LeaseGranted(c, 4, 7, 8)))
                            .assertValid();
            assertThat(report.terms()).isEqualTo(3);
            assertThat(report.overlaps()).isZero();
        }

        @Test
        @DisplayName("reports a window that starts before the previous term's ceiling")
        void overlappingWindows() {
            SlotLease a = lease(0, "a", 1, Instant.EPOCH, 0);
            SlotLease b = lease(0, "b", 2, a.ceiling().minusMillis(1), 10);
            HistoryChecker.Report report =
                    HistoryChecker.check(
                            List.of(new LeaseGranted(a, 4, 1, 2), new LeaseGranted(b, 4, 3, 4)));
            assertThat(report.overlaps()).isEqualTo(1);
            assertThat(report.violations())
                    .anyMatch(v -> v.contains("before an earlier window ends"));
        }

        @Test
        @DisplayName("reports a takeover before the previous holder expired")
        void earlyTakeover() {
            SlotLease a = lease(0, "a", 1, Instant.EPOCH, 0);
            SlotLease b = lease(0, "b", 2, a.ceiling(), 5);
            assertThat(
                            HistoryChecker.check(
                                            List.of(
                                                    new LeaseGranted(a, 4, 1, 2),
                                                    new LeaseGranted(b, 4, 3, 4)))
                                    .violations())
                    .anyMatch(
                            v ->
                                    v.contains(
                                            "while the unreleased term before it (fence 1) held the"
                                                    + " slot"));
        }

        @Test
        @DisplayName("reports a fence granted twice and a fence that goes back in real time")
        void fences() {
            SlotLease a = lease(0, "a", 2, Instant.EPOCH, 0);
            SlotLease b = lease(0, "b", 1, Instant.EPOCH, 0);
            assertThat(
                            HistoryChecker.check(
                                            List.of(
                                                    new LeaseGranted(a, 4, 1, 2),
                                                    new LeaseGranted(b, 4, 3, 4)))
                                    .violations())
                    .anyMatch(v -> v.contains("fence went back"));
            assertThat(
                            HistoryChecker.check(
                                            List.of(
                                                    new LeaseGranted(a, 4, 1, 2),
                                                    new LeaseGranted(a, 4, 3, 4)))
                                    .violations())
                    .anyMatch(v -> v.contains("granted twice"));
        }

        @Test
        @DisplayName("reports a stale renew that succeeded and a renew that went back")
        void staleAndBackwards() {
            SlotLease a = lease(0, "a", 1, Instant.EPOCH, 0);
            SlotLease b = lease(0, "b", 2, a.ceiling(), 20);
            SlotLease aLater = lease(0, "a", 1, Instant.EPOCH, 5);
            assertThat(
                            HistoryChecker.check(
                                            List.of(
                                                    new LeaseGranted(a, 4, 1, 2),
                                                    new LeaseGranted(b, 4, 3, 4),
                                                    new LeaseRenewed(aLater, 5, 6)))
                                    .violations())
                    .anyMatch(v -> v.contains("stale lease"));
            assertThat(
                            HistoryChecker.check(
                                            List.of(
                                                    new LeaseGranted(aLater, 4, 1, 2),
                                                    new LeaseRenewed(a, 3, 4)))
                                    .violations())
                    .anyMatch(v -> v.contains("went back"));
        }

        @Test
        @DisplayName(
                "ends a window at the bound a release of unknown outcome declared, unless renewed"
                        + " after it")
        void unknownRelease() {
            SlotLease a = lease(0, "a", 1, Instant.EPOCH, 0);
            Instant declared = T0.plusSeconds(1);
            SlotLease b = lease(0, "b", 2, declared, 3);
            HistoryChecker.check(
                            List.of(
                                    new LeaseGranted(a, 4, 1, 2),
                                    new HistoryEvent.LeaseReleaseUnknown(a, declared, 3, 4),
                                    new LeaseGranted(b, 4, 5, 6)))
                    .assertValid();
            SlotLease early = lease(0, "b", 2, T0.plusMillis(500), 3);
            assertThat(
                            HistoryChecker.check(
                                            List.of(
                                                    new LeaseGranted(a, 4, 1, 2),
                                                    new HistoryEvent.LeaseReleaseUnknown(
                                                            a, declared, 3, 4),
                                                    new LeaseGranted(early, 4, 5, 6)))
                                    .violations())
                    .anyMatch(v -> v.contains("before an earlier window ends"));
            SlotLease renewed = lease(0, "a", 1, Instant.EPOCH, 1);
            assertThat(
                            HistoryChecker.check(
                                            List.of(
                                                    new LeaseGranted(a, 4, 1, 2),
                                                    new HistoryEvent.LeaseReleaseUnknown(
                                                            a, declared, 3, 4),
                                                    new LeaseRenewed(renewed, 5, 6),
                                                    new LeaseGranted(b, 4, 7, 8)))
                                    .violations())
                    .anyMatch(v -> v.contains("before an earlier window ends"));
        }

        @Test
        @DisplayName("keeps the whole window of a release of unknown outcome that declared nothing")
        void unknownPlainRelease() {
            SlotLease a = lease(0, "a", 1, Instant.EPOCH, 0);
            SlotLease b = lease(0, "b", 2, T0.plusSeconds(1), 3);
            assertThat(
                            HistoryChecker.check(
                                            List.of(
                                                    new LeaseGranted(a, 4, 1, 2),
                                                    new HistoryEvent.LeaseReleaseUnknown(
                                                            a, null, 3, 4),
                                                    new LeaseGranted(b, 4, 5, 6)))
                                    .violations())
                    .anyMatch(v -> v.contains("before an earlier window ends"));
            SlotLease atCeiling = lease(0, "b", 2, a.ceiling(), 3);
            HistoryChecker.check(
                            List.of(
                                    new LeaseGranted(a, 4, 1, 2),
                                    new HistoryEvent.LeaseReleaseUnknown(a, null, 3, 4),
                                    new LeaseGranted(atCeiling, 4, 5, 6)))
                    .assertValid();
        }

        @Test
        @DisplayName("reports a slot at or above the limit")
        void limit() {
            assertThat(
                            HistoryChecker.check(
                                            List.of(
                                                    new LeaseGranted(
                                                            lease(4, "a", 1, Instant.EPOCH, 0),
                                                            4,
                                                            1,
                                                            2)))
                                    .violations())
                    .anyMatch(v -> v.contains("at or above the limit"));
        }

        @Test
        @DisplayName("accepts concurrent renews in any completion order")
        void concurrentRenews() {
            SlotLease a = lease(0, "a", 1, Instant.EPOCH, 0);
            SlotLease r1 = lease(0, "a", 1, Instant.EPOCH, 3);
            SlotLease r2 = lease(0, "a", 1, Instant.EPOCH, 2);
            HistoryChecker.check(
                            List.of(
                                    new LeaseGranted(a, 4, 1, 2),
                                    new LeaseRenewed(r1, 3, 6),
                                    new LeaseRenewed(r2, 4, 5)))
                    .assertValid();
        }
    }

    @Test
    @DisplayName("the recorder records what the stores returned, with real-time order")
    void recorderOrders() {
        HistoryRecorder recorder = new HistoryRecorder();
        long first = recorder.tick();
        long second = recorder.tick();
        assertThat(second).isGreaterThan(first);
        recorder.record(new RangeGranted(new Range("k", 0, 1), first, second));
        assertThat(recorder.events()).hasSize(1);
    }
}
