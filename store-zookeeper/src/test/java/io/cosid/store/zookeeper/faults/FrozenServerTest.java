package io.cosid.store.zookeeper.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.StoreException;
import io.cosid.store.StoreUnavailableException;
import io.cosid.store.zookeeper.ZooKeeperStores;
import io.cosid.store.zookeeper.harness.ForkedEnsemble;
import io.cosid.store.zookeeper.harness.SilentListener;
import io.cosid.store.zookeeper.harness.ZooKeeperServers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A server that accepts connections but never answers (a silent listener, or a server stopped with
 * SIGSTOP): every call, the open and the close included, ends within the budget it names.
 * ZooKeeper's client waits a whole session timeout (60 s here) to end a session against such a
 * server; the bounds asserted are generous against the budgets (seconds) and far below that.
 */
@DisplayName("Fault 9: a server that accepts connections but never answers")
class FrozenServerTest {

    /** Far above every budget below, far below the 60 s the client waits unbounded. */
    private static final Duration GENEROUS = Duration.ofSeconds(20);

    private final List<AutoCloseable> resources = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable r : resources) {
            r.close();
        }
    }

    private static StoreConfig config(String connectString) {
        return StoreConfig.of("frozen", "zookeeper")
                .withTimeout(Duration.ofSeconds(1))
                .withOption("connectString", connectString)
                .withOption("sessionTimeout", "60s")
                .withOption("blockUntilConnectedWait", "2s");
    }

    @Test
    @DisplayName(
            "open against a silent listener fails with 'no connection within 2s' soon after the"
                    + " 2 s wait, not after the session timeout")
    void openAgainstSilentListener() {
        SilentListener listener = new SilentListener();
        resources.add(listener);
        String connectString = listener.connectString();
        long started = System.nanoTime();

        assertThatThrownBy(() -> ZooKeeperStores.open(config(connectString)))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("no connection within 2s (blockUntilConnectedWait)");

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(GENEROUS);
    }

    @Test
    @DisplayName(
            "a server stopped mid-run: an acquire ends within its 1 s budget as a timeout (not"
                    + " 'no connection'), and closing the store returns within its budget")
    void serverStoppedMidRun() {
        ForkedEnsemble server = ForkedEnsemble.standalone(ZooKeeperServers.PRIMARY);
        resources.add(server);
        Store store = ZooKeeperStores.open(config(server.connectString()));
        store.ranges().acquire("orders", 10);
        server.pause(1);
        try {
            long started = System.nanoTime();
            assertThatThrownBy(() -> store.ranges().acquire("orders", 10))
                    .isInstanceOf(StoreException.class)
                    .hasMessageContaining("timeout of 1s")
                    .hasMessageNotContaining("no connection within");
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(GENEROUS);

            long closing = System.nanoTime();
            store.close();
            assertThat(Duration.ofNanos(System.nanoTime() - closing)).isLessThan(GENEROUS);
        } finally {
            server.resume(1);
        }
    }
}
