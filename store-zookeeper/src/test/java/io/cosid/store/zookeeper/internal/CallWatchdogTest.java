package io.cosid.store.zookeeper.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
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

    private static final CallWatchdog WATCHDOG = new CallWatchdog("call-watchdog-test");
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
}
