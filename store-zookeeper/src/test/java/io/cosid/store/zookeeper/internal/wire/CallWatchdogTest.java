package io.cosid.store.zookeeper.internal.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.cosid.store.Ticker;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.zookeeper.KeeperException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The watchdog's own rules, on calls that stand in for a synchronous ZooKeeper request; a real
 * request to a hung server is LeaderHangTest's.
 */
@DisplayName("Call watchdog")
class CallWatchdogTest {

    private static final CallWatchdog WATCHDOG =
            new CallWatchdog("call-watchdog-test", Ticker.system());
    private final CountDownLatch never = new CountDownLatch(1);

    @AfterEach
    void noInterruptLeftBehind() {
        assertThat(Thread.interrupted()).as("the test thread is left uninterrupted").isFalse();
    }

    @Test
    @DisplayName(
            "a call that answers in time returns its answer and leaves its thread uninterrupted")
    void answerInTime() throws Exception {
        assertThat(WATCHDOG.run(TimeUnit.SECONDS.toNanos(5), () -> "answer")).isEqualTo("answer");
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
    }

    @Test
    @DisplayName(
            "a call still waiting at its deadline ends with a timeout soon after it, its interrupt"
                    + " taken back")
    void waitingPastDeadline() {
        long budget = TimeUnit.MILLISECONDS.toNanos(100);
        long started = System.nanoTime();
        assertThatThrownBy(
                        () ->
                                WATCHDOG.run(
                                        budget,
                                        () -> {
                                            never.await();
                                            return "never";
                                        }))
                .isInstanceOf(TimeoutException.class);
        long took = System.nanoTime() - started;
        assertThat(took).as("ends at its deadline, not before").isGreaterThanOrEqualTo(budget);
        assertThat(took)
                .as("ends soon after its deadline")
                .isLessThan(budget + TimeUnit.MILLISECONDS.toNanos(500));
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
    }

    @Test
    @DisplayName(
            "an interrupt the thread already had ends the call as an interrupt, not as a timeout")
    void callerInterrupt() {
        Thread.currentThread().interrupt();
        assertThatThrownBy(
                        () ->
                                WATCHDOG.run(
                                        TimeUnit.SECONDS.toNanos(5),
                                        () -> {
                                            never.await();
                                            return "never";
                                        }))
                .isInstanceOf(InterruptedException.class);
    }

    @Test
    @DisplayName("a ZooKeeper error of the call reaches the caller as it is")
    void keeperErrorPassesThrough() {
        assertThatThrownBy(
                        () ->
                                WATCHDOG.run(
                                        TimeUnit.SECONDS.toNanos(5),
                                        () -> {
                                            throw new KeeperException.BadVersionException(
                                                    "/cosid/ranges/k");
                                        }))
                .isInstanceOf(KeeperException.BadVersionException.class);
    }

    @Test
    @DisplayName(
            "a call that answers just as its deadline passes keeps its answer and leaves no"
                    + " interrupt behind")
    void answerAtDeadline() throws Exception {
        for (int i = 0; i < 300; i++) {
            long budget = TimeUnit.MICROSECONDS.toNanos(200 + (i % 7) * 300);
            long end = System.nanoTime() + budget + (i % 3) * TimeUnit.MICROSECONDS.toNanos(500);
            int round = i;
            Integer answer;
            try {
                answer =
                        WATCHDOG.run(
                                budget,
                                () -> {
                                    while (System.nanoTime() < end) {
                                        Thread.onSpinWait(); // busy, as a caller between the
                                        // reply and its return
                                    }
                                    return round;
                                });
            } catch (TimeoutException e) {
                throw new AssertionError(
                        "a call that never waits cannot be interrupted out of a wait", e);
            }
            assertThat(answer).isEqualTo(round);
            assertThat(Thread.interrupted()).as("round %d leaves no interrupt", round).isFalse();
        }
    }

    @Test
    @DisplayName("a call with no budget left ends with a timeout, its interrupt taken back")
    void noBudget() {
        assertThatThrownBy(
                        () ->
                                WATCHDOG.run(
                                        0,
                                        () -> {
                                            never.await();
                                            return "never";
                                        }))
                .isInstanceOf(TimeoutException.class);
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
    }

    @Test
    @DisplayName("of two callers waiting, only the one past its deadline is interrupted")
    void onlyExpiredCallersInterrupted() throws Exception {
        CountDownLatch longWaiterIn = new CountDownLatch(1);
        CountDownLatch releaseLongWaiter = new CountDownLatch(1);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<String> longWaiter =
                    pool.submit(
                            () ->
                                    WATCHDOG.run(
                                            TimeUnit.SECONDS.toNanos(60),
                                            () -> {
                                                longWaiterIn.countDown();
                                                releaseLongWaiter.await();
                                                return "answered";
                                            }));
            assertThat(longWaiterIn.await(10, TimeUnit.SECONDS)).isTrue();
            assertThatThrownBy(
                            () ->
                                    WATCHDOG.run(
                                            TimeUnit.MILLISECONDS.toNanos(50),
                                            () -> {
                                                never.await();
                                                return "never";
                                            }))
                    .isInstanceOf(TimeoutException.class);
            assertThat(longWaiter).as("still waiting after the other timed out").isNotDone();
            releaseLongWaiter.countDown();
            assertThat(longWaiter.get(10, TimeUnit.SECONDS)).isEqualTo("answered");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    @DisplayName(
            "a call that failed before its deadline is forgotten: a later wait on the thread is"
                    + " not interrupted at that deadline")
    void failedCallForgotten() throws Exception {
        assertThatThrownBy(
                        () ->
                                WATCHDOG.run(
                                        TimeUnit.MILLISECONDS.toNanos(20),
                                        () -> {
                                            throw new IllegalStateException("refused at once");
                                        }))
                .isInstanceOf(IllegalStateException.class);
        CountDownLatch release = new CountDownLatch(1);
        Thread releaser =
                new Thread(
                        () -> {
                            // wait well past the first call's deadline, on a latch nobody counts
                            // down, then let the second call answer
                            try {
                                new CountDownLatch(1).await(300, TimeUnit.MILLISECONDS);
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                            release.countDown();
                        });
        releaser.start();
        String answer =
                WATCHDOG.run(
                        TimeUnit.SECONDS.toNanos(60),
                        () -> {
                            release.await();
                            return "answered";
                        });
        assertThat(answer).isEqualTo("answered");
        releaser.join();
    }

    /** A ticker the test steps by hand. */
    private static final class SteppedTicker implements Ticker {
        private final AtomicLong nanos = new AtomicLong();

        @Override
        public long nanos() {
            return nanos.get();
        }

        void step(Duration by) {
            nanos.addAndGet(by.toNanos());
        }
    }

    /** Runs a call that waits for {@code never} on another thread, once it is in the call. */
    private Future<String> waitingCall(ExecutorService pool, CallWatchdog watchdog, Duration budget)
            throws InterruptedException {
        CountDownLatch in = new CountDownLatch(1);
        Future<String> call =
                pool.submit(
                        () ->
                                watchdog.run(
                                        budget.toNanos(),
                                        () -> {
                                            in.countDown();
                                            never.await();
                                            return "never";
                                        }));
        assertThat(in.await(10, TimeUnit.SECONDS)).isTrue();
        return call;
    }

    @Test
    @DisplayName(
            "the deadline is read from the store's ticker: stepping it past the deadline ends the"
                    + " call, without waiting an hour")
    void steppedTicker() throws Exception {
        SteppedTicker ticker = new SteppedTicker();
        CallWatchdog watchdog = new CallWatchdog("call-watchdog-stepped", ticker);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<String> call = waitingCall(pool, watchdog, Duration.ofHours(1));
            ticker.step(Duration.ofMinutes(59));
            assertThat(call).as("not yet at its deadline").isNotDone();
            ticker.step(Duration.ofMinutes(2));
            assertThatThrownBy(() -> call.get(10, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(TimeoutException.class);
        } finally {
            watchdog.close();
            pool.shutdownNow();
        }
    }

    @Test
    @DisplayName(
            "a store's watchdog starts no thread before its first call, and its thread ends once"
                    + " the store closes with no call waiting")
    void threadLivesWithTheStore() throws Exception {
        CallWatchdog watchdog = new CallWatchdog("call-watchdog-lifetime", Ticker.system());
        assertThat(watchdog.running()).as("no call yet: no thread").isFalse();
        assertThat(watchdog.run(TimeUnit.SECONDS.toNanos(5), () -> "answer")).isEqualTo("answer");
        assertThat(watchdog.running()).as("started by the first call").isTrue();
        watchdog.close();
        await("the watchdog thread ends after close")
                .atMost(Duration.ofSeconds(10))
                .until(() -> !watchdog.running());
    }

    @Test
    @DisplayName(
            "a call still waiting when the store closes keeps its watchdog, and a call after close"
                    + " gets one again")
    void callsAroundClose() throws Exception {
        SteppedTicker ticker = new SteppedTicker();
        CallWatchdog watchdog = new CallWatchdog("call-watchdog-close", ticker);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<String> waiting = waitingCall(pool, watchdog, Duration.ofSeconds(30));
            watchdog.close();
            ticker.step(Duration.ofMinutes(1));
            assertThatThrownBy(() -> waiting.get(10, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(TimeoutException.class);
            await("the watchdog thread ends once nobody waits")
                    .atMost(Duration.ofSeconds(10))
                    .until(() -> !watchdog.running());
            Future<String> later = waitingCall(pool, watchdog, Duration.ofSeconds(30));
            ticker.step(Duration.ofMinutes(1));
            assertThatThrownBy(() -> later.get(10, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(TimeoutException.class);
        } finally {
            pool.shutdownNow();
        }
    }
}
