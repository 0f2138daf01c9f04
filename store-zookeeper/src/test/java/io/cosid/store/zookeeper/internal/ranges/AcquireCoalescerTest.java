package io.cosid.store.zookeeper.internal.ranges;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.cosid.store.Range;
import io.cosid.store.RangeExhaustedException;
import io.cosid.store.StoreTimeoutException;
import io.cosid.store.Ticker;
import io.cosid.store.spi.Deadline;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The coalescer of concurrent acquires on one key, with a fake writer in place of ZooKeeper: what
 * is written, for whom, and what each caller gets when budgets run out, writes fail or the thread
 * is interrupted.
 */
@DisplayName("AcquireCoalescer: one write for concurrent acquires on a key")
class AcquireCoalescerTest {

    private static final Duration LONG = Duration.ofSeconds(30);

    /** A counter in memory that records every write; the first write can be held until released. */
    private static final class FakeWriter implements AcquireCoalescer.Writer {
        final List<Long> writes = Collections.synchronizedList(new ArrayList<>());
        final CountDownLatch firstWriteStarted = new CountDownLatch(1);
        final CountDownLatch releaseFirstWrite;
        final CountDownLatch secondWriteStarted = new CountDownLatch(1);
        final CountDownLatch releaseSecondWrite = new CountDownLatch(1);
        volatile boolean holdSecond;
        volatile long limit = Long.MAX_VALUE;

        /** Write numbers (1-based) that fail with the writer's own timeout. */
        volatile int timeoutOnWrite = -1;

        private long next;
        private final AtomicInteger calls = new AtomicInteger();

        FakeWriter(boolean holdFirst) {
            releaseFirstWrite = new CountDownLatch(holdFirst ? 1 : 0);
        }

        /**
         * When set, the second write's first try is lost (after its hold) and it tries again,
         * settling its demand anew.
         */
        volatile boolean secondTriesTwice;

        /** When positive, the second write is a turn of this fixed size (a seat's declared one). */
        volatile long secondFixedSize;

        /** The thread that makes the second write (a caller that took the turn). */
        volatile Thread secondWriter;

        /** When positive, the second write carries at most this many values ({@code fit}). */
        volatile long secondFitsTo;

        @Override
        public Range write(AcquireCoalescer.Demand demand, Deadline deadline) {
            int call = calls.incrementAndGet();
            long size;
            if (call == 2 && secondFitsTo > 0) {
                size = demand.fit(secondFitsTo);
            } else if (call == 2 && secondFixedSize > 0) {
                size = secondFixedSize;
                demand.fillExactly(size);
            } else {
                size = demand.settle();
            }
            if (call == 1) {
                firstWriteStarted.countDown();
                try {
                    releaseFirstWrite.await();
                } catch (InterruptedException e) {
                    throw deadline.interrupted(e);
                }
            }
            if (call == 2 && holdSecond) {
                secondWriter = Thread.currentThread();
                secondWriteStarted.countDown();
                try {
                    releaseSecondWrite.await();
                } catch (InterruptedException e) {
                    throw deadline.interrupted(e);
                }
            }
            if (call == 2 && secondTriesTwice) {
                if (secondFixedSize > 0) {
                    demand.fillExactly(size);
                } else {
                    size = demand.settle();
                }
                if (size == 0) {
                    return null;
                }
            }
            if (call == timeoutOnWrite) {
                throw deadline.expired(null);
            }
            synchronized (this) {
                if (size > limit - next) {
                    throw new RangeExhaustedException("k", next, size);
                }
                writes.add(size);
                Range r = new Range("k", next, next + size);
                next += size;
                return r;
            }
        }
    }

    private final ExecutorService pool = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        pool.shutdownNow();
    }

    private static Deadline budget(Duration d) {
        return Deadline.start("acquire on range key 'k'", d, Ticker.system());
    }

    /**
     * Queues callers behind a first write that is held, and waits until every one of them is parked
     * on the coalescer: a caller parks only once its request is queued and the turn is taken.
     */
    private List<Future<Range>> queueBehindHeldWrite(
            AcquireCoalescer coalescer, FakeWriter writer, long... sizes)
            throws InterruptedException {
        var unused = pool.submit(() -> coalescer.acquire(1, budget(LONG)));
        assertThat(writer.firstWriteStarted.await(10, TimeUnit.SECONDS)).isTrue();
        List<Future<Range>> queued = new ArrayList<>();
        List<Thread> callers = Collections.synchronizedList(new ArrayList<>());
        for (long size : sizes) {
            queued.add(
                    pool.submit(
                            () -> {
                                callers.add(Thread.currentThread());
                                return coalescer.acquire(size, budget(LONG));
                            }));
        }
        await("every caller queued and parked")
                .atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(1))
                .until(
                        () ->
                                callers.size() == sizes.length
                                        && callers.stream()
                                                .allMatch(
                                                        t ->
                                                                LockSupport.getBlocker(t)
                                                                        == coalescer));
        return queued;
    }

    @Test
    @DisplayName("one caller: exactly one write of its size")
    void single() {
        FakeWriter writer = new FakeWriter(false);
        assertThat(new AcquireCoalescer(writer).acquire(7, budget(LONG)))
                .isEqualTo(new Range("k", 0, 7));
        assertThat(writer.writes).containsExactly(7L);
    }

    @Test
    @DisplayName(
            "callers queued behind a write are written together once, each getting its own"
                    + " consecutive part")
    void coalesces() throws Exception {
        FakeWriter writer = new FakeWriter(true);
        AcquireCoalescer coalescer = new AcquireCoalescer(writer);
        List<Future<Range>> queued = queueBehindHeldWrite(coalescer, writer, 2, 3, 5);
        writer.releaseFirstWrite.countDown();
        List<Range> ranges = new ArrayList<>();
        for (Future<Range> f : queued) {
            ranges.add(f.get(10, TimeUnit.SECONDS));
        }
        assertThat(writer.writes)
                .as("the held write, then one write for the three queued")
                .containsExactly(1L, 10L);
        ranges.sort((a, b) -> Long.compare(a.start(), b.start()));
        assertThat(ranges.get(0).start()).isEqualTo(1);
        for (int i = 1; i < ranges.size(); i++) {
            assertThat(ranges.get(i).start())
                    .as("consecutive, disjoint")
                    .isEqualTo(ranges.get(i - 1).end());
        }
        assertThat(ranges.get(2).end()).isEqualTo(11);
    }

    @Test
    @DisplayName("a queued caller that runs out of time withdraws, and nothing is written for it")
    void withdraws() throws Exception {
        FakeWriter writer = new FakeWriter(true);
        AcquireCoalescer coalescer = new AcquireCoalescer(writer);
        var unused = pool.submit(() -> coalescer.acquire(1, budget(LONG)));
        assertThat(writer.firstWriteStarted.await(10, TimeUnit.SECONDS)).isTrue();
        Future<Range> patient = pool.submit(() -> coalescer.acquire(4, budget(LONG)));
        assertThatThrownBy(() -> coalescer.acquire(100, budget(Duration.ofMillis(50))))
                .isInstanceOf(StoreTimeoutException.class);
        writer.releaseFirstWrite.countDown();
        assertThat(patient.get(10, TimeUnit.SECONDS)).isEqualTo(new Range("k", 1, 5));
        assertThat(writer.writes).as("nothing for the withdrawn 100").containsExactly(1L, 4L);
    }

    @Test
    @DisplayName(
            "a carried caller that gives up while its write is under way: its part is skipped and"
                    + " counted as given up, never handed to anyone")
    void carriedGivesUp() throws Exception {
        FakeWriter writer = new FakeWriter(true);
        AtomicLong givenUp = new AtomicLong();
        AcquireCoalescer coalescer = new AcquireCoalescer(writer, givenUp::addAndGet);
        List<Future<Range>> both = quitDuringSecondWrite(coalescer, writer);
        writer.releaseSecondWrite.countDown();
        assertThat(both.get(0).get(10, TimeUnit.SECONDS))
                .isIn(new Range("k", 1, 6), new Range("k", 6, 11));
        assertThat(writer.writes).as("one write for both").containsExactly(1L, 10L);
        assertThat(givenUp).as("the quitter's part, skipped").hasValue(5);
        assertThat(coalescer.acquire(2, budget(LONG)))
                .as("the skipped part is never handed out")
                .isEqualTo(new Range("k", 11, 13));
    }

    /**
     * Holds the second write, which carries two callers of 5 queued behind the first, and makes the
     * one of them that is not writing it give up; returns {carrier, quitter}. Either caller may
     * take the turn (the one woken, or the one whose park ran out first): the quitter is whichever
     * waits.
     */
    private List<Future<Range>> quitDuringSecondWrite(AcquireCoalescer coalescer, FakeWriter writer)
            throws Exception {
        writer.holdSecond = true;
        List<Thread> callers = Collections.synchronizedList(new ArrayList<>());
        var unused = pool.submit(() -> coalescer.acquire(1, budget(LONG)));
        assertThat(writer.firstWriteStarted.await(10, TimeUnit.SECONDS)).isTrue();
        List<Future<Range>> queued = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            int at = i;
            queued.add(
                    pool.submit(
                            () -> {
                                callers.add(Thread.currentThread());
                                return coalescer.acquire(5, budget(LONG));
                            }));
            await("caller " + at + " queued and parked")
                    .atMost(Duration.ofSeconds(10))
                    .pollInterval(Duration.ofMillis(1))
                    .until(
                            () ->
                                    callers.size() > at
                                            && LockSupport.getBlocker(callers.get(at))
                                                    == coalescer);
        }
        writer.releaseFirstWrite.countDown();
        assertThat(writer.secondWriteStarted.await(10, TimeUnit.SECONDS)).isTrue();
        int quitter = callers.get(0) == writer.secondWriter ? 1 : 0;
        callers.get(quitter).interrupt();
        assertThatThrownBy(() -> queued.get(quitter).get(10, TimeUnit.SECONDS))
                .hasCauseInstanceOf(StoreTimeoutException.class);
        return List.of(queued.get(1 - quitter), queued.get(quitter));
    }

    /** Queues a caller of {@code size} while the second write is held; waits until it parks. */
    private Future<Range> queueDuringSecondWrite(AcquireCoalescer coalescer, long size) {
        AtomicReference<Thread> caller = new AtomicReference<>();
        Future<Range> f =
                pool.submit(
                        () -> {
                            caller.set(Thread.currentThread());
                            return coalescer.acquire(size, budget(LONG));
                        });
        await("the newcomer queued and parked")
                .atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(1))
                .until(
                        () ->
                                caller.get() != null
                                        && LockSupport.getBlocker(caller.get()) == coalescer);
        return f;
    }

    @Test
    @DisplayName(
            "a carried caller that gives up between two tries of its write is not written for, and"
                    + " nothing is skipped")
    void givesUpBetweenTries() throws Exception {
        FakeWriter writer = new FakeWriter(true);
        writer.secondTriesTwice = true;
        AtomicLong givenUp = new AtomicLong();
        AcquireCoalescer coalescer = new AcquireCoalescer(writer, givenUp::addAndGet);
        List<Future<Range>> queued = quitDuringSecondWrite(coalescer, writer);
        writer.releaseSecondWrite.countDown();
        assertThat(queued.get(0).get(10, TimeUnit.SECONDS)).isEqualTo(new Range("k", 1, 6));
        assertThat(writer.writes)
                .as("the second try settled its demand again: only the carrier's 5")
                .containsExactly(1L, 5L);
        assertThat(givenUp).hasValue(0);
        assertThat(coalescer.acquire(2, budget(LONG))).isEqualTo(new Range("k", 6, 8));
    }

    @Test
    @DisplayName(
            "a caller that queues while a write is retried rides along with its next try, which it"
                    + " queued before")
    void ridesAlong() throws Exception {
        FakeWriter writer = new FakeWriter(true);
        writer.secondTriesTwice = true;
        writer.holdSecond = true;
        AcquireCoalescer coalescer = new AcquireCoalescer(writer);
        Future<Range> carrier = queueBehindHeldWrite(coalescer, writer, 4).get(0);
        writer.releaseFirstWrite.countDown();
        assertThat(writer.secondWriteStarted.await(10, TimeUnit.SECONDS)).isTrue();
        Future<Range> newcomer = queueDuringSecondWrite(coalescer, 3);
        writer.releaseSecondWrite.countDown();
        assertThat(carrier.get(10, TimeUnit.SECONDS)).isEqualTo(new Range("k", 1, 5));
        assertThat(newcomer.get(10, TimeUnit.SECONDS)).isEqualTo(new Range("k", 5, 8));
        assertThat(writer.writes).as("one write for carrier and newcomer").containsExactly(1L, 7L);
    }

    @Test
    @DisplayName(
            "a turn of a fixed size fills a given-up part with a caller that queued since, and"
                    + " counts what stays unfilled as given up")
    void fixedTurnRefilled() throws Exception {
        FakeWriter writer = new FakeWriter(true);
        writer.secondTriesTwice = true;
        writer.secondFixedSize = 10;
        AtomicLong givenUp = new AtomicLong();
        AcquireCoalescer coalescer = new AcquireCoalescer(writer, givenUp::addAndGet);
        List<Future<Range>> queued = quitDuringSecondWrite(coalescer, writer);
        Future<Range> fits = queueDuringSecondWrite(coalescer, 3);
        Future<Range> tooLarge = queueDuringSecondWrite(coalescer, 4);
        writer.releaseSecondWrite.countDown();
        assertThat(queued.get(0).get(10, TimeUnit.SECONDS)).isEqualTo(new Range("k", 1, 6));
        assertThat(fits.get(10, TimeUnit.SECONDS))
                .as("the 3 fits in the quitter's 5")
                .isEqualTo(new Range("k", 6, 9));
        assertThat(tooLarge.get(10, TimeUnit.SECONDS))
                .as("the 4 did not fit: it waited for the next write")
                .isEqualTo(new Range("k", 11, 15));
        assertThat(writer.writes).containsExactly(1L, 10L, 4L);
        assertThat(givenUp).as("the 2 left of the quitter's part").hasValue(2);
    }

    @Test
    @DisplayName(
            "a write fitted to a smaller size carries the oldest callers and hands the newest back"
                    + " to the queue, for the next write")
    void fitsSmaller() throws Exception {
        FakeWriter writer = new FakeWriter(true);
        writer.secondFitsTo = 8;
        AtomicLong givenUp = new AtomicLong();
        AcquireCoalescer coalescer = new AcquireCoalescer(writer, givenUp::addAndGet);
        List<Future<Range>> queued = queueBehindHeldWrite(coalescer, writer, 4, 4, 4);
        writer.releaseFirstWrite.countDown();
        List<Range> ranges = new ArrayList<>();
        for (Future<Range> f : queued) {
            ranges.add(f.get(10, TimeUnit.SECONDS));
        }
        assertThat(writer.writes)
                .as("the held write, 8 for two callers, then 4 for the one handed back")
                .containsExactly(1L, 8L, 4L);
        ranges.sort((a, b) -> Long.compare(a.start(), b.start()));
        assertThat(ranges)
                .containsExactly(new Range("k", 1, 5), new Range("k", 5, 9), new Range("k", 9, 13));
        assertThat(givenUp).hasValue(0);
    }

    @Test
    @DisplayName("when the writer's own budget ends, the callers it carried retry within theirs")
    void carriedRetry() throws Exception {
        FakeWriter writer = new FakeWriter(true);
        writer.timeoutOnWrite = 2; // the write of the batch queued behind the first
        AcquireCoalescer coalescer = new AcquireCoalescer(writer);
        List<Future<Range>> queued = queueBehindHeldWrite(coalescer, writer, 2, 3, 5);
        writer.releaseFirstWrite.countDown();
        int timedOut = 0;
        List<Range> ranges = new ArrayList<>();
        for (Future<Range> f : queued) {
            try {
                ranges.add(f.get(10, TimeUnit.SECONDS));
            } catch (ExecutionException e) {
                assertThat(e.getCause()).isInstanceOf(StoreTimeoutException.class);
                timedOut++;
            }
        }
        assertThat(timedOut).as("only the caller whose write it was").isEqualTo(1);
        assertThat(ranges).hasSize(2);
        long written = writer.writes.stream().mapToLong(Long::longValue).sum();
        assertThat(written)
                .as("the carried callers were written again, once")
                .isEqualTo(1 + ranges.stream().mapToLong(r -> r.end() - r.start()).sum());
    }

    @Test
    @DisplayName(
            "a batch whose sum does not fit falls back to single writes; the sizes that fit still"
                    + " get ranges")
    void overflowFallsBack() throws Exception {
        FakeWriter writer = new FakeWriter(true);
        writer.limit = 1 + 6;
        AcquireCoalescer coalescer = new AcquireCoalescer(writer);
        List<Future<Range>> queued = queueBehindHeldWrite(coalescer, writer, 4, 4);
        writer.releaseFirstWrite.countDown();
        int exhausted = 0;
        for (Future<Range> f : queued) {
            try {
                assertThat(f.get(10, TimeUnit.SECONDS)).isEqualTo(new Range("k", 1, 5));
            } catch (ExecutionException e) {
                assertThat(e.getCause()).isInstanceOf(RangeExhaustedException.class);
                exhausted++;
            }
        }
        assertThat(exhausted).isEqualTo(1);
        assertThat(writer.writes).containsExactly(1L, 4L);
    }

    @Test
    @DisplayName("an interrupted caller gives up with a timeout and keeps its interrupt flag")
    void interrupt() throws Exception {
        FakeWriter writer = new FakeWriter(true);
        AcquireCoalescer coalescer = new AcquireCoalescer(writer);
        Future<Range> first = pool.submit(() -> coalescer.acquire(1, budget(LONG)));
        assertThat(writer.firstWriteStarted.await(10, TimeUnit.SECONDS)).isTrue();
        AtomicReference<Thread> callerThread = new AtomicReference<>();
        CompletableFuture<Boolean> flagKept = new CompletableFuture<>();
        var unused =
                pool.submit(
                        () -> {
                            callerThread.set(Thread.currentThread());
                            try {
                                coalescer.acquire(9, budget(LONG));
                                flagKept.completeExceptionally(
                                        new AssertionError("acquired although interrupted"));
                            } catch (StoreTimeoutException e) {
                                flagKept.complete(Thread.currentThread().isInterrupted());
                            }
                        });
        await().atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(1))
                .until(
                        () ->
                                callerThread.get() != null
                                        && LockSupport.getBlocker(callerThread.get()) == coalescer);
        callerThread.get().interrupt();
        assertThat(flagKept.get(10, TimeUnit.SECONDS)).isTrue();
        writer.releaseFirstWrite.countDown();
        assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo(new Range("k", 0, 1));
        assertThat(writer.writes).as("nothing for the interrupted 9").containsExactly(1L);
    }
}
