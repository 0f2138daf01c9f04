package io.cosid.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("LeaseGuard applies the holder's rule")
class LeaseGuardTest {

    private static final Instant FLOOR = Instant.parse("2026-01-01T00:00:00Z");
    private final SlotLease lease =
            new SlotLease(
                    "ns",
                    3,
                    "host-1",
                    7,
                    1,
                    FLOOR,
                    FLOOR.plusSeconds(40),
                    FLOOR.plusSeconds(42),
                    Duration.ofSeconds(30),
                    Duration.ofSeconds(2));
    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final LeaseGuard guard = LeaseGuard.of(lease, nanos.get(), nanos::get);

    @Test
    @DisplayName("stamps only timestamps in [floor, ceiling)")
    void window() {
        assertThat(guard.mayStamp(FLOOR)).isTrue();
        assertThat(guard.mayStamp(FLOOR.minusMillis(1))).isFalse();
        assertThat(guard.mayStamp(FLOOR.plusSeconds(42).minusMillis(1))).isTrue();
        assertThat(guard.mayStamp(FLOOR.plusSeconds(42))).isFalse();
        assertThat(guard.mayStamp(FLOOR.toEpochMilli() + 5)).isTrue();
    }

    @Test
    @DisplayName("stops once ttl has passed on the monotonic clock since the request was sent")
    void monotonicTtl() {
        nanos.addAndGet(Duration.ofSeconds(29).toNanos());
        assertThat(guard.remaining()).isEqualTo(Duration.ofSeconds(1));
        assertThat(guard.isUsable()).isTrue();
        nanos.addAndGet(Duration.ofSeconds(1).toNanos());
        assertThat(guard.remaining()).isZero();
        assertThat(guard.isUsable()).isFalse();
        assertThat(guard.mayStamp(FLOOR.plusSeconds(1))).isFalse();
    }

    /**
     * A store that answers release(lease, stampedBefore) with stampedBefore and remembers the
     * declaration, and answers release(lease), which declares nothing, with the lease's ceiling.
     */
    private static final class DeclarationRecorder {
        final AtomicReference<Instant> declared = new AtomicReference<>();
        final AtomicInteger undeclared = new AtomicInteger();
        final SlotLeaseStore store =
                (SlotLeaseStore)
                        Proxy.newProxyInstance(
                                SlotLeaseStore.class.getClassLoader(),
                                new Class<?>[] {SlotLeaseStore.class},
                                (proxy, method, args) -> {
                                    if (method.getName().equals("release") && args.length == 2) {
                                        declared.set((Instant) args[1]);
                                        return args[1];
                                    }
                                    if (method.getName().equals("release")) {
                                        undeclared.incrementAndGet();
                                        return ((SlotLease) args[0]).ceiling();
                                    }
                                    if (method.getName().equals("renew")) {
                                        return args[0];
                                    }
                                    throw new UnsupportedOperationException(method.getName());
                                });
    }

    @Test
    @DisplayName(
            "release declares the highest timestamp allowed plus 1 ms, across the guards of one"
                    + " term")
    void releaseDeclaresHighest() {
        DeclarationRecorder recorder = new DeclarationRecorder();
        assertThat(guard.mayStamp(FLOOR.plusMillis(700))).isTrue();
        LeaseGuard renewed = guard.renew(recorder.store);
        assertThat(renewed.mayStamp(FLOOR.plusMillis(900))).isTrue();
        assertThat(guard.mayStamp(FLOOR.plusMillis(800))).isTrue();
        assertThat(guard.mayStamp(FLOOR.minusMillis(5)))
                .as("outside the window: not remembered")
                .isFalse();
        assertThat(renewed.release(recorder.store)).isEqualTo(FLOOR.plusMillis(901));
        assertThat(recorder.declared.get()).isEqualTo(FLOOR.plusMillis(901));
    }

    @Test
    @DisplayName(
            "release of a term whose guards allowed nothing declares nothing: a timestamp nobody"
                    + " recorded was maybe used, so the next floor is the ceiling")
    void releaseOfUnrecordedDeclaresNothing() {
        DeclarationRecorder recorder = new DeclarationRecorder();
        LeaseGuard renewed = guard.renew(recorder.store);
        assertThat(renewed.release(recorder.store)).isEqualTo(lease.ceiling());
        assertThat(recorder.declared.get()).as("no declaration sent").isNull();
        assertThat(recorder.undeclared.get()).isEqualTo(1);
    }

    @Test
    @DisplayName("after release no guard of the term allows a timestamp or renews")
    void closedAfterRelease() {
        DeclarationRecorder recorder = new DeclarationRecorder();
        LeaseGuard renewed = guard.renew(recorder.store);
        guard.release(recorder.store);
        assertThat(guard.isReleased()).isTrue();
        assertThat(renewed.isReleased()).isTrue();
        assertThat(guard.mayStamp(FLOOR)).isFalse();
        assertThat(renewed.mayStamp(FLOOR.plusSeconds(1))).isFalse();
        assertThatThrownBy(() -> renewed.renew(recorder.store))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("released");
        assertThat(renewed.release(recorder.store))
                .as("asked again: declares nothing new")
                .isEqualTo(lease.ceiling());
        assertThat(recorder.declared.get())
                .as("the first release declared nothing either")
                .isNull();
        assertThat(recorder.undeclared.get()).isEqualTo(2);
    }

    @Test
    @DisplayName("a release racing stampers declares above every timestamp any of them was allowed")
    void releaseRacingStampers() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            for (int round = 0; round < 200; round++) {
                LeaseGuard raced = LeaseGuard.of(lease, nanos.get(), nanos::get);
                DeclarationRecorder recorder = new DeclarationRecorder();
                AtomicLong highestAllowed = new AtomicLong(Long.MIN_VALUE);
                CountDownLatch start = new CountDownLatch(1);
                List<Future<?>> stampers = new ArrayList<>();
                for (int t = 0; t < 3; t++) {
                    int offset = t;
                    stampers.add(
                            pool.submit(
                                    () -> {
                                        start.await();
                                        for (long ms = offset; ms < 40_000; ms += 3) {
                                            if (raced.mayStamp(FLOOR.plusMillis(ms))) {
                                                highestAllowed.accumulateAndGet(
                                                        FLOOR.plusMillis(ms).toEpochMilli(),
                                                        Math::max);
                                            } else {
                                                break;
                                            }
                                        }
                                        return null;
                                    }));
                }
                start.countDown();
                Instant declared = raced.release(recorder.store);
                for (Future<?> f : stampers) {
                    f.get(30, TimeUnit.SECONDS);
                }
                if (highestAllowed.get() != Long.MIN_VALUE) {
                    assertThat(declared.toEpochMilli())
                            .as("round " + round)
                            .isGreaterThan(highestAllowed.get());
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
