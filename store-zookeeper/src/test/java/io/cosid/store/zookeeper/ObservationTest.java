package io.cosid.store.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cosid.store.Range;
import io.cosid.store.Store;
import io.cosid.store.StoreObserver;
import io.cosid.store.StoreObserver.ConnectionEvent;
import io.cosid.store.StoreObserver.FailedWriteEvent;
import io.cosid.store.StoreObserver.FailedWriteEvent.Reason;
import io.cosid.store.StoreObserver.Operation;
import io.cosid.store.StoreObserver.OperationEvent;
import io.cosid.store.StoreObserver.Outcome;
import io.cosid.store.zookeeper.harness.ZooKeeperProxy;
import io.cosid.store.zookeeper.harness.ZooKeeperServerExtension;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What only the ZooKeeper backend can report to a {@link StoreObserver} (the TCK's observation part
 * covers operations and leases): lost races, writes of unknown outcome, connection states.
 */
@DisplayName("Observation on ZooKeeper")
class ObservationTest {

    @RegisterExtension
    static final ZooKeeperServerExtension SERVER = ZooKeeperServerExtension.primary();

    private final ZooKeeperFixture fixture = new ZooKeeperFixture(SERVER.server());
    private final Recording recording = new Recording();
    private ZooKeeperProxy proxy;

    /** Everything an observer heard. */
    private static final class Recording implements StoreObserver {
        final List<OperationEvent> operations = new CopyOnWriteArrayList<>();
        final List<FailedWriteEvent> failedWrites = new CopyOnWriteArrayList<>();
        final List<ConnectionEvent> connections = new CopyOnWriteArrayList<>();

        @Override
        public void operation(OperationEvent event) {
            operations.add(event);
        }

        @Override
        public void failedWrite(FailedWriteEvent event) {
            failedWrites.add(event);
        }

        @Override
        public void connection(ConnectionEvent event) {
            connections.add(event);
        }
    }

    @AfterEach
    void close() {
        fixture.close();
        if (proxy != null) {
            proxy.close();
        }
    }

    /** A store that reaches the server through a proxy this test can cut. */
    private Store throughProxy() {
        String target = SERVER.server().connectString();
        proxy = new ZooKeeperProxy(Integer.parseInt(target.substring(target.lastIndexOf(':') + 1)));
        Store store =
                ZooKeeperStores.open(
                        fixture.config()
                                .withOption("connectString", proxy.connectString())
                                .withOption("retry.baseSleepTime", "20ms")
                                .withOption("retry.maxRetries", "29")
                                .withObserver(recording));
        return store;
    }

    @Test
    @DisplayName(
            "a race lost to another process is reported once as lost.race; the acquire as success")
    void lostRace() {
        Store observed = fixture.openObservedStore(recording).orElseThrow();
        Store other = fixture.openStore();
        observed.ranges().acquire("orders", 10);
        other.ranges().acquire("orders", 10);
        // the observed store writes over the state it last saw, which the other store moved
        Range range = observed.ranges().acquire("orders", 10);

        assertThat(range.start()).isEqualTo(20);
        assertThat(recording.failedWrites)
                .containsExactly(
                        new FailedWriteEvent(
                                "tck", "zookeeper", Operation.RANGE_ACQUIRE, Reason.LOST_RACE));
        assertThat(recording.operations)
                .extracting(OperationEvent::outcome)
                .containsExactly(Outcome.SUCCESS, Outcome.SUCCESS);
    }

    @Test
    @DisplayName(
            "a range write whose reply is lost is reported as outcome.unknown; the acquire"
                    + " succeeds past the gap")
    void unknownOutcome() {
        Store store = throughProxy();
        // the key's first write creates its node, the second its line: from then on a range
        // write is one multi
        store.ranges().acquire("orders", 10);
        Range before = store.ranges().acquire("orders", 10);
        proxy.dropReplyToNext(ZooKeeperProxy.MULTI);
        Range after = store.ranges().acquire("orders", 10);

        assertThat(after.start()).isEqualTo(before.end() + 10);
        assertThat(recording.failedWrites)
                .containsExactly(
                        new FailedWriteEvent(
                                "tck",
                                "zookeeper",
                                Operation.RANGE_ACQUIRE,
                                Reason.OUTCOME_UNKNOWN));
        assertThat(recording.operations)
                .extracting(OperationEvent::outcome)
                .containsOnly(Outcome.SUCCESS)
                .hasSize(3);
    }

    @Test
    @DisplayName(
            "a dropped connection is reported as suspended, then reconnected on the same session")
    void connectionStates() {
        Store store = throughProxy();
        store.ranges().acquire("orders", 10);
        assertThat(recording.connections).isEmpty();

        proxy.resetAll();
        await("suspended, then reconnected")
                .atMost(Duration.ofSeconds(30))
                .until(
                        () ->
                                recording.connections.stream()
                                        .map(ConnectionEvent::state)
                                        .toList()
                                        .containsAll(
                                                List.of(
                                                        ConnectionEvent.State.SUSPENDED,
                                                        ConnectionEvent.State.RECONNECTED)));
        assertThat(recording.connections)
                .extracting(ConnectionEvent::state)
                .containsExactly(
                        ConnectionEvent.State.SUSPENDED, ConnectionEvent.State.RECONNECTED);
        assertThat(recording.connections)
                .allSatisfy(
                        e -> {
                            assertThat(e.newSession()).isFalse();
                            assertThat(e.store()).isEqualTo("tck");
                        });
        assertThat(store.ranges().acquire("orders", 10).start()).isEqualTo(10);
    }
}
