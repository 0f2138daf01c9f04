package io.cosid.store.spi;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosid.store.LeaseLostException;
import io.cosid.store.SlotLease;
import io.cosid.store.StoreCorruptedException;
import io.cosid.store.StoreObserver.ConnectionEvent;
import io.cosid.store.StoreObserver.FailedWriteEvent;
import io.cosid.store.StoreObserver.LeaseEvent;
import io.cosid.store.StoreObserver.Operation;
import io.cosid.store.StoreObserver.OperationEvent;
import io.cosid.store.StoreObserver.Outcome;
import io.cosid.store.spi.StoreLog.Severity;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Every backend's log lines: levels, messages, no stack trace for expected conditions. */
@DisplayName("A store's log")
class StoreLogTest {

    /** One line as written: level, text, and the throwable given, if any. */
    private record Line(Severity severity, String text, @Nullable Throwable thrown) {}

    /** A log that keeps every line of the levels that are on. */
    private static final class Recorder extends StoreLog {
        final List<Line> lines = new ArrayList<>();
        final Set<Severity> on;

        Recorder(Set<Severity> on) {
            this.on = on;
        }

        @Override
        protected boolean enabled(Severity severity) {
            return on.contains(severity);
        }

        @Override
        protected void write(Severity severity, String text, @Nullable Throwable failure) {
            lines.add(new Line(severity, text, failure));
        }
    }

    private final Recorder log = new Recorder(EnumSet.allOf(Severity.class));

    private static OperationEvent operation(Outcome outcome, @Nullable Throwable failure) {
        return new OperationEvent(
                "main",
                "zookeeper",
                Operation.SLOT_RENEW,
                outcome,
                Duration.ofMillis(3),
                "workers",
                failure);
    }

    private Line only() {
        assertThat(log.lines).hasSize(1);
        return log.lines.get(0);
    }

    @Test
    @DisplayName("a successful operation is one DEBUG line")
    void success() {
        log.operation(operation(Outcome.SUCCESS, null));
        assertThat(only().severity()).isEqualTo(Severity.DEBUG);
        assertThat(only().text()).isEqualTo("store 'main': slot.renew 'workers' took 3.0 ms");
    }

    @Test
    @DisplayName("a lost lease and corrupt data are WARN lines with the reason, no stack trace")
    void warnings() {
        log.operation(
                operation(
                        Outcome.LEASE_LOST,
                        new LeaseLostException("workers", 1, 3, "slot 1 has fence 4 now")));
        log.operation(
                operation(
                        Outcome.CORRUPT,
                        new StoreCorruptedException(
                                "slot 1 of 'workers'", "field 'fence' missing")));
        assertThat(log.lines)
                .extracting(Line::severity)
                .containsExactly(Severity.WARN, Severity.WARN);
        assertThat(log.lines.get(0).text())
                .startsWith("store 'main': slot.renew 'workers' ended lease.lost after 3.0 ms: ")
                .contains("fence 4 now");
        assertThat(log.lines.get(1).text()).contains("field 'fence' missing");
        assertThat(log.lines).allSatisfy(l -> assertThat(l.thrown()).isNull());
    }

    @Test
    @DisplayName("an unexpected failure is a WARN line with its stack trace")
    void unexpected() {
        IllegalStateException bug = new IllegalStateException("planted");
        log.operation(operation(Outcome.FAILED, bug));
        assertThat(only().severity()).isEqualTo(Severity.WARN);
        assertThat(only().text()).contains("failed unexpectedly");
        assertThat(only().thrown()).isSameAs(bug);
    }

    @Test
    @DisplayName("the caller's own answers (exhausted, refused, ...) are DEBUG only")
    void callersAnswers() {
        log.operation(operation(Outcome.EXHAUSTED, new IllegalStateException("no slot")));
        log.operation(operation(Outcome.REFUSED, new IllegalArgumentException("bad")));
        assertThat(log.lines).extracting(Line::severity).containsOnly(Severity.DEBUG);
    }

    @Test
    @DisplayName("a write of unknown outcome is WARN; a lost race DEBUG")
    void failedWrites() {
        log.failedWrite(
                new FailedWriteEvent(
                        "main",
                        "jdbc",
                        Operation.RANGE_ACQUIRE,
                        FailedWriteEvent.Reason.OUTCOME_UNKNOWN));
        log.failedWrite(
                new FailedWriteEvent(
                        "main",
                        "jdbc",
                        Operation.RANGE_ACQUIRE,
                        FailedWriteEvent.Reason.LOST_RACE));
        assertThat(log.lines)
                .extracting(Line::severity)
                .containsExactly(Severity.WARN, Severity.DEBUG);
        assertThat(log.lines.get(0).text())
                .contains("range.acquire lost its reply")
                .contains("never handed out twice");
    }

    @Test
    @DisplayName("a suspended connection and a new session are WARN; back on the same session INFO")
    void connection() {
        log.connection(
                new ConnectionEvent("main", "zookeeper", ConnectionEvent.State.SUSPENDED, false));
        log.connection(
                new ConnectionEvent("main", "zookeeper", ConnectionEvent.State.RECONNECTED, false));
        log.connection(
                new ConnectionEvent("main", "zookeeper", ConnectionEvent.State.RECONNECTED, true));
        assertThat(log.lines)
                .extracting(Line::severity)
                .containsExactly(Severity.WARN, Severity.INFO, Severity.WARN);
        assertThat(log.lines.get(2).text()).contains("new session");
    }

    @Test
    @DisplayName("lease events are DEBUG lines with the margin")
    void leases() {
        SlotLease lease =
                new SlotLease(
                        "workers",
                        1,
                        "host-1",
                        4,
                        1,
                        Instant.parse("2026-12-06T10:00:00Z"),
                        Instant.parse("2026-12-06T10:00:30Z"),
                        Instant.parse("2026-12-06T10:00:31Z"),
                        Duration.ofSeconds(30),
                        Duration.ofSeconds(1));
        log.lease(
                new LeaseEvent(
                        "main",
                        "jdbc",
                        LeaseEvent.Kind.RENEWED,
                        lease,
                        Duration.ofSeconds(29),
                        Duration.ofSeconds(20)));
        assertThat(only().severity()).isEqualTo(Severity.DEBUG);
        assertThat(only().text())
                .isEqualTo(
                        "store 'main': lease renewed of slot 1 in 'workers' (fence 4), valid for"
                                + " 29000 ms, margin 20000 ms");
    }

    @Test
    @DisplayName("opening with options and closing are INFO lines naming the backend")
    void openedAndClosed() {
        log.openedWith("main", "jdbc", "url=jdbc:postgresql://db/ids, password=****");
        log.closed("main", "jdbc");
        assertThat(log.lines)
                .extracting(Line::severity)
                .containsExactly(Severity.INFO, Severity.INFO);
        assertThat(log.lines)
                .extracting(Line::text)
                .containsExactly(
                        "store 'main' (jdbc) opened: url=jdbc:postgresql://db/ids, password=****",
                        "store 'main' (jdbc) closed");
    }

    @Test
    @DisplayName("a line whose level is off is not written")
    void levelsOff() {
        Recorder warnOnly = new Recorder(EnumSet.of(Severity.WARN));
        warnOnly.operation(operation(Outcome.SUCCESS, null));
        warnOnly.closed("main", "jdbc");
        warnOnly.operation(operation(Outcome.TIMED_OUT, null));
        assertThat(warnOnly.lines).extracting(Line::severity).containsExactly(Severity.WARN);
    }
}
