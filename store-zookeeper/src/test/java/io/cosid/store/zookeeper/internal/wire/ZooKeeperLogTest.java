package io.cosid.store.zookeeper.internal.wire;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosid.store.StoreConfig;
import io.cosid.store.StoreObserver.Operation;
import io.cosid.store.StoreObserver.OperationEvent;
import io.cosid.store.StoreObserver.Outcome;
import io.cosid.store.zookeeper.internal.connect.ZooKeeperOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;

/**
 * The ZooKeeper store's log: spi's lines written through SLF4J (the lines themselves are tested in
 * spi's {@code StoreLogTest}), and the lines only this backend writes.
 */
@DisplayName("The ZooKeeper store's log")
class ZooKeeperLogTest {

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
    private final ZooKeeperLog log = new ZooKeeperLog(recorder);

    private Line only() {
        assertThat(recorder.lines).hasSize(1);
        return recorder.lines.get(0);
    }

    @Test
    @DisplayName(
            "spi's lines reach SLF4J at their level, a stack trace only with an unexpected failure")
    void throughSlf4j() {
        IllegalStateException bug = new IllegalStateException("planted");
        log.closed("main", ZooKeeperOptions.TYPE);
        log.operation(
                new OperationEvent(
                        "main",
                        ZooKeeperOptions.TYPE,
                        Operation.RANGE_ACQUIRE,
                        Outcome.FAILED,
                        Duration.ofMillis(2),
                        "orders",
                        bug));
        assertThat(recorder.lines).extracting(Line::level).containsExactly(Level.INFO, Level.WARN);
        assertThat(recorder.lines.get(0).text()).isEqualTo("store 'main' (zookeeper) closed");
        assertThat(recorder.lines.get(0).thrown()).isNull();
        assertThat(recorder.lines.get(1).thrown()).isSameAs(bug);
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
