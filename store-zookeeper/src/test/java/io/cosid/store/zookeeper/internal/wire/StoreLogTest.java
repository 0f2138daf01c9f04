package io.cosid.store.zookeeper.internal.wire;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosid.store.LeaseLostException;
import io.cosid.store.SlotLease;
import io.cosid.store.StoreConfig;
import io.cosid.store.StoreCorruptedException;
import io.cosid.store.StoreObserver.ConnectionEvent;
import io.cosid.store.StoreObserver.FailedWriteEvent;
import io.cosid.store.StoreObserver.LeaseEvent;
import io.cosid.store.StoreObserver.Operation;
import io.cosid.store.StoreObserver.OperationEvent;
import io.cosid.store.StoreObserver.Outcome;
import io.cosid.store.zookeeper.internal.connect.ZooKeeperOptions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;

/** The ZooKeeper store's log lines: levels, messages, no stack trace for expected conditions. */
@DisplayName("The ZooKeeper store's log")
class StoreLogTest {

    /** One line as written: level, text, and the throwable given, if any. */
    private record Line(Level level, String text, Throwable thrown) {}

    /** A logger that keeps every line, all levels on. */
    private static final class Recorder extends LegacyAbstractLogger {
        private static final long serialVersionUID = 1L;
        final transient List<Line> lines = new ArrayList<>();

        @Override
        protected String getFullyQualifiedCallerName() {
            return null;
        }

        @Override
        protected void handleNormalizedLoggingCall(
                Level level, Marker marker, String pattern, Object[] args, Throwable thrown) {
            lines.add(new Line(level, MessageFormatter.basicArrayFormat(pattern, args), thrown));
        }

        @Override
        public boolean isTraceEnabled() {
            return true;
        }

        @Override
        public boolean isDebugEnabled() {
            return true;
        }

        @Override
        public boolean isInfoEnabled() {
            return true;
        }

        @Override
        public boolean isWarnEnabled() {
            return true;
        }

        @Override
        public boolean isErrorEnabled() {
            return true;
        }
    }

    private final Recorder recorder = new Recorder();
    private final StoreLog log = new StoreLog(recorder);

    private static OperationEvent operation(Outcome outcome, Throwable failure) {
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
        assertThat(recorder.lines).hasSize(1);
        return recorder.lines.get(0);
    }

    @Test
    @DisplayName("a successful operation is one DEBUG line")
    void success() {
        log.operation(operation(Outcome.SUCCESS, null));
        assertThat(only().level()).isEqualTo(Level.DEBUG);
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
        assertThat(recorder.lines).extracting(Line::level).containsExactly(Level.WARN, Level.WARN);
        assertThat(recorder.lines.get(0).text())
                .startsWith("store 'main': slot.renew 'workers' ended lease.lost after 3.0 ms: ")
                .contains("fence 4 now");
        assertThat(recorder.lines.get(1).text()).contains("field 'fence' missing");
        assertThat(recorder.lines).allSatisfy(l -> assertThat(l.thrown()).isNull());
    }

    @Test
    @DisplayName(
            "a line the store may not write is one WARN line naming the key, the node and the"
                    + " repair")
    void lineNotWritable() {
        log.lineNotWritable("main", "orders", "/cosid/.line/ab12");
        assertThat(only().level()).isEqualTo(Level.WARN);
        assertThat(only().text())
                .contains("range key 'orders'", "/cosid/.line/ab12", "compare-and-set alone")
                .contains("acl=open");
        assertThat(only().thrown()).isNull();
    }

    @Test
    @DisplayName("an unexpected failure is a WARN line with its stack trace")
    void unexpected() {
        IllegalStateException bug = new IllegalStateException("planted");
        log.operation(operation(Outcome.FAILED, bug));
        assertThat(only().level()).isEqualTo(Level.WARN);
        assertThat(only().thrown()).isSameAs(bug);
    }

    @Test
    @DisplayName("the caller's own answers (exhausted, refused, ...) are DEBUG only")
    void callersAnswers() {
        log.operation(operation(Outcome.EXHAUSTED, new IllegalStateException("no slot")));
        log.operation(operation(Outcome.REFUSED, new IllegalArgumentException("bad")));
        assertThat(recorder.lines).extracting(Line::level).containsOnly(Level.DEBUG);
    }

    @Test
    @DisplayName("a write of unknown outcome is WARN; a lost race DEBUG")
    void failedWrites() {
        log.failedWrite(
                new FailedWriteEvent(
                        "main",
                        "zookeeper",
                        Operation.RANGE_ACQUIRE,
                        FailedWriteEvent.Reason.OUTCOME_UNKNOWN));
        log.failedWrite(
                new FailedWriteEvent(
                        "main",
                        "zookeeper",
                        Operation.RANGE_ACQUIRE,
                        FailedWriteEvent.Reason.LOST_RACE));
        assertThat(recorder.lines).extracting(Line::level).containsExactly(Level.WARN, Level.DEBUG);
        assertThat(recorder.lines.get(0).text())
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
        assertThat(recorder.lines)
                .extracting(Line::level)
                .containsExactly(Level.WARN, Level.INFO, Level.WARN);
        assertThat(recorder.lines.get(2).text()).contains("new session");
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
                        "zookeeper",
                        LeaseEvent.Kind.RENEWED,
                        lease,
                        Duration.ofSeconds(29),
                        Duration.ofSeconds(20)));
        assertThat(only().level()).isEqualTo(Level.DEBUG);
        assertThat(only().text())
                .isEqualTo(
                        "store 'main': lease renewed of slot 1 in 'workers' (fence 4), valid for"
                                + " 29000 ms, margin 20000 ms");
    }

    @Test
    @DisplayName("the open line shows the effective options with every secret masked")
    void openedMasksSecrets() {
        StoreConfig config =
                StoreConfig.of("main", "zookeeper")
                        .withOption("connectString", "zk-1:2181")
                        .withOption("auth.digest", "app:s3cret-digest")
                        .withOption("root", "/ids");
        ZooKeeperOptions options = ZooKeeperOptions.parse(config, true);
        log.openedWith("main", options.describe(true));
        assertThat(only().level()).isEqualTo(Level.INFO);
        assertThat(only().text())
                .startsWith("store 'main' (zookeeper) opened: connectString=zk-1:2181, ")
                .contains("auth.digest=****", "root=/ids", "acl=creator")
                .doesNotContain("s3cret");
        assertThat(options.toString()).doesNotContain("s3cret");
        assertThat(options.describe(false))
                .contains("the application's CuratorFramework")
                .doesNotContain("zk-1");
    }
}
