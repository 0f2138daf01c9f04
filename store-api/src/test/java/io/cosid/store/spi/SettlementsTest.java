package io.cosid.store.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cosid.store.StoreCorruptedException;
import io.cosid.store.StoreTimeoutException;
import io.cosid.store.StoreUnavailableException;
import io.cosid.store.spi.StoreLog.Severity;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * spi's one rule for finishing timed-out acquires and releases in the background: how long it
 * tries, what it retries, what it gives up on, its thread and its close.
 */
@DisplayName("Settlements")
class SettlementsTest {

    private static final Duration TIMEOUT = Duration.ofMillis(40);

    /** The log lines written, as level and text. */
    private static final class Lines extends StoreLog {
        final List<String> lines = new CopyOnWriteArrayList<>();

        @Override
        protected boolean enabled(Severity severity) {
            return true;
        }

        @Override
        protected void write(Severity severity, String text, @Nullable Throwable failure) {
            lines.add(severity + " " + text + (failure == null ? "" : " [" + failure + "]"));
        }
    }

    private final AtomicLong nanos = new AtomicLong();
    private final Lines log = new Lines();
    private final Settlements settlements = new Settlements("main", TIMEOUT, nanos::get, log);

    @AfterEach
    void close() {
        settlements.close();
    }

    @Test
    @DisplayName(
            "tries until settled, each attempt on a budget of at most one store timeout, on a"
                    + " daemon thread named after the store")
    void retriesUntilSettled() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        List<Long> budgets = new CopyOnWriteArrayList<>();
        List<String> threads = new CopyOnWriteArrayList<>();
        CountDownLatch settled = new CountDownLatch(1);
        settlements.later(
                "releasing slot 1",
                Duration.ofMinutes(1),
                d -> {
                    budgets.add(d.remainingNanos());
                    threads.add(
                            Thread.currentThread().getName()
                                    + (Thread.currentThread().isDaemon() ? " daemon" : ""));
                    if (attempts.incrementAndGet() < 3) {
                        return false;
                    }
                    settled.countDown();
                    return true;
                });
        assertThat(settled.await(30, TimeUnit.SECONDS)).isTrue();
        assertThat(attempts).hasValue(3);
        assertThat(budgets).allSatisfy(b -> assertThat(b).isEqualTo(TIMEOUT.toNanos()));
        assertThat(threads).containsOnly("cosid-store-settle-main daemon");
        assertThat(log.lines).isEmpty();
    }

    @Test
    @DisplayName("a store out of time or out of reach is tried again, one DEBUG line each time")
    void retriesUnreachable() {
        AtomicInteger attempts = new AtomicInteger();
        settlements.later(
                "releasing slot 1",
                Duration.ofMinutes(1),
                d -> {
                    switch (attempts.incrementAndGet()) {
                        case 1 -> throw new StoreTimeoutException("release", TIMEOUT, null);
                        case 2 -> throw new StoreUnavailableException("jdbc", "refused", null);
                        default -> {
                            return true;
                        }
                    }
                });
        await().atMost(Duration.ofSeconds(30)).until(() -> attempts.get() == 3);
        await().atMost(Duration.ofSeconds(30)).until(() -> log.lines.size() == 2);
        assertThat(log.lines)
                .allSatisfy(
                        l ->
                                assertThat(l)
                                        .startsWith(
                                                "DEBUG store 'main': releasing slot 1 not settled"
                                                        + " yet: "));
    }

    @Test
    @DisplayName("any other answer of the store ends it, with one WARN line naming it")
    void givesUpOnOtherAnswers() {
        AtomicInteger attempts = new AtomicInteger();
        settlements.later(
                "releasing slot 1",
                Duration.ofMinutes(1),
                d -> {
                    attempts.incrementAndGet();
                    throw new StoreCorruptedException("slot 1 of 'workers'", "fence missing");
                });
        await().atMost(Duration.ofSeconds(30)).until(() -> !log.lines.isEmpty());
        assertThat(log.lines)
                .singleElement()
                .asString()
                .startsWith("WARN store 'main': releasing slot 1: ")
                .contains("fence missing", "the lease's ttl ran out");
        assertThat(attempts).hasValue(1);
    }

    @Test
    @DisplayName("stops once the lease's ttl (at least the store's timeout) is spent, saying so")
    void stopsWhenSpent() {
        AtomicInteger attempts = new AtomicInteger();
        settlements.later(
                "releasing slot 1",
                Duration.ofSeconds(5),
                d -> {
                    attempts.incrementAndGet();
                    nanos.addAndGet(Duration.ofSeconds(3).toNanos()); // the attempt took 3 s
                    return false;
                });
        await().atMost(Duration.ofSeconds(30)).until(() -> !log.lines.isEmpty());
        assertThat(attempts).hasValue(2);
        assertThat(log.lines)
                .containsExactly(
                        "WARN store 'main': releasing slot 1: not settled within 5s; the slot is"
                                + " free once the lease's ttl ran out");
    }

    @Test
    @DisplayName("an unexpected failure ends it with its stack trace")
    void unexpected() {
        settlements.later(
                "releasing slot 1",
                Duration.ofMinutes(1),
                d -> {
                    throw new ArithmeticException("planted");
                });
        await().atMost(Duration.ofSeconds(30)).until(() -> !log.lines.isEmpty());
        assertThat(log.lines)
                .singleElement()
                .asString()
                .contains("failed unexpectedly", "[java.lang.ArithmeticException: planted]");
    }

    @Test
    @DisplayName("close lets a queued settlement finish; one queued after close is refused")
    void close_() throws Exception {
        // a timeout long enough that close waits for the attempt however busy the machine is
        Settlements settlements = new Settlements("main", Duration.ofMinutes(1), nanos::get, log);
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger done = new AtomicInteger();
        settlements.later(
                "releasing slot 1",
                Duration.ofMinutes(1),
                d -> {
                    running.countDown();
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    done.incrementAndGet();
                    return true;
                });
        assertThat(running.await(30, TimeUnit.SECONDS)).isTrue();
        release.countDown();
        settlements.close();
        assertThat(done).hasValue(1);
        settlements.later("releasing slot 2", Duration.ofMinutes(1), d -> true);
        assertThat(log.lines)
                .containsExactly(
                        "WARN store 'main': releasing slot 2: the store is closed; the slot is"
                                + " free once the lease's ttl ran out");
    }
}
