package io.cosid.store.zookeeper.internal.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cosid.store.StoreConfig;
import io.cosid.store.StoreObserver;
import io.cosid.store.StoreObserver.FailedWriteEvent;
import io.cosid.store.StoreObserver.FailedWriteEvent.Reason;
import io.cosid.store.StoreObserver.Operation;
import io.cosid.store.Ticker;
import io.cosid.store.spi.Deadline;
import io.cosid.store.zookeeper.harness.InProcessServer;
import io.cosid.store.zookeeper.internal.connect.ZooKeeperOptions;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The one place that sends a conditional write and names its outcome, on a real server: every kind
 * of outcome but the unknown one (a lost reply, which the cut-off fault tests produce through a
 * proxy), and that a failed write wrote nothing.
 */
@DisplayName("A conditional write")
class ConditionalWriteTest {

    private static InProcessServer server;
    private static CuratorFramework client;
    private static CallWatchdog watchdog;
    private static ConditionalWrite write;
    private static final List<FailedWriteEvent> FAILED = new CopyOnWriteArrayList<>();
    private String root;

    @BeforeAll
    static void start() throws InterruptedException {
        server = InProcessServer.start();
        client = CuratorFrameworkFactory.newClient(server.connectString(), new RetryOneTime(100));
        client.start();
        assertThat(client.blockUntilConnected(20, TimeUnit.SECONDS)).isTrue();
        ZooKeeperOptions options =
                ZooKeeperOptions.parse(StoreConfig.of("writes", "zookeeper"), false);
        watchdog = new CallWatchdog("conditional-write-test", Ticker.system());
        RoundTrips roundTrips = new RoundTrips(client, options, watchdog);
        Failures failures = new Failures(options);
        ConnectionRetry retry = new ConnectionRetry(client, options);
        Reads reads = new Reads(roundTrips, retry, failures);
        StoreObserver observer =
                new StoreObserver() {
                    @Override
                    public void failedWrite(FailedWriteEvent event) {
                        FAILED.add(event);
                    }
                };
        write =
                new ConditionalWrite(
                        roundTrips,
                        reads,
                        failures,
                        new NodePaths("/writes"),
                        retry,
                        new Observations(
                                StoreConfig.of("writes", "zookeeper").withObserver(observer)));
    }

    @AfterAll
    static void stop() {
        watchdog.close();
        client.close();
        server.close();
    }

    @BeforeEach
    void newRoot() throws Exception {
        root = "/writes/t-" + System.nanoTime();
        FAILED.clear();
        client.create().creatingParentsIfNeeded().forPath(root);
    }

    private static Deadline deadline() {
        return Deadline.start("a test write", Duration.ofSeconds(20), Ticker.system());
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    private String data(String path) throws Exception {
        return new String(client.getData().forPath(path), StandardCharsets.US_ASCII);
    }

    private Stat stat(String path) throws Exception {
        return client.checkExists().forPath(path);
    }

    @Test
    @DisplayName("a create that lands returns the new node's Stat")
    void createLands() throws Exception {
        WriteOutcome outcome =
                write.send(deadline(), "n", NodeChange.create(root + "/n", bytes("1")));
        assertThat(outcome.kind()).isEqualTo(WriteOutcome.Kind.LANDED);
        assertThat(outcome.stat(0).getVersion()).isZero();
        assertThat(outcome.stat(0).getCzxid()).isEqualTo(stat(root + "/n").getCzxid());
        assertThat(data(root + "/n")).isEqualTo("1");
    }

    @Test
    @DisplayName("a compare-and-set at the version read lands, and its Stat has the next version")
    void replaceLands() throws Exception {
        client.create().forPath(root + "/n", bytes("1"));
        WriteOutcome outcome =
                write.send(
                        deadline(),
                        "n",
                        NodeChange.replace(root + "/n", 0, bytes("1"), bytes("2")));
        assertThat(outcome.landed()).isTrue();
        assertThat(outcome.stat(0).getVersion()).isEqualTo(1);
        assertThat(data(root + "/n")).isEqualTo("2");
    }

    @Test
    @DisplayName("a compare-and-set at a stale version loses the race and writes nothing")
    void staleVersionLoses() throws Exception {
        client.create().forPath(root + "/n", bytes("1"));
        client.setData().forPath(root + "/n", bytes("other"));
        WriteOutcome outcome =
                write.send(
                        deadline(),
                        "n",
                        NodeChange.replace(root + "/n", 0, bytes("1"), bytes("2")));
        assertThat(outcome.kind()).isEqualTo(WriteOutcome.Kind.LOST_RACE);
        assertThat(outcome.behind()).isNull();
        assertThat(data(root + "/n")).isEqualTo("other");
        assertThatThrownBy(() -> outcome.stat(0)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    @DisplayName("with a read behind it, a lost race already knows the winner's state")
    void readBehindShowsWinner() throws Exception {
        client.create().forPath(root + "/n", bytes("1"));
        client.setData().forPath(root + "/n", bytes("winner"));
        WriteOutcome outcome =
                write.sendWithReadBehind(
                        deadline(),
                        "n",
                        NodeChange.replace(root + "/n", 0, bytes("1"), bytes("2")));
        assertThat(outcome.kind()).isEqualTo(WriteOutcome.Kind.LOST_RACE);
        assertThat(new String(outcome.behind().data(), StandardCharsets.US_ASCII))
                .isEqualTo("winner");
        assertThat(outcome.behind().stat().getVersion()).isEqualTo(1);
    }

    @Test
    @DisplayName("a lost race is reported once to the observer, with the operation it was part of")
    void lostRaceReported() throws Exception {
        client.create().forPath(root + "/n", bytes("1"));
        client.setData().forPath(root + "/n", bytes("other"));
        write.send(
                Deadline.start(
                        Operation.RANGE_ADVANCE,
                        "a test advance",
                        Duration.ofSeconds(20),
                        Ticker.system()),
                "n",
                NodeChange.replace(root + "/n", 0, bytes("1"), bytes("2")));
        assertThat(FAILED)
                .containsExactly(
                        new FailedWriteEvent(
                                "writes", "zookeeper", Operation.RANGE_ADVANCE, Reason.LOST_RACE));
    }

    @Test
    @DisplayName("a write that lands, or one outside any store call, reports nothing")
    void landedOrUnownedNotReported() throws Exception {
        write.send(
                Deadline.start(
                        Operation.RANGE_ACQUIRE,
                        "a test acquire",
                        Duration.ofSeconds(20),
                        Ticker.system()),
                "n",
                NodeChange.create(root + "/n", bytes("1")));
        write.send(deadline(), "n", NodeChange.create(root + "/n", bytes("again")));
        assertThat(FAILED).isEmpty();
    }

    @Test
    @DisplayName("a create of a node that exists loses the race and leaves the node as it is")
    void createOfExistingLoses() throws Exception {
        client.create().forPath(root + "/n", bytes("first"));
        WriteOutcome outcome =
                write.send(deadline(), "n", NodeChange.create(root + "/n", bytes("second")));
        assertThat(outcome.kind()).isEqualTo(WriteOutcome.Kind.LOST_RACE);
        assertThat(data(root + "/n")).isEqualTo("first");
    }

    @Test
    @DisplayName("a create under a missing parent names that parent and creates nothing")
    void missingParent() throws Exception {
        WriteOutcome outcome =
                write.send(deadline(), "n", NodeChange.create(root + "/p/n", bytes("1")));
        assertThat(outcome.kind()).isEqualTo(WriteOutcome.Kind.PARENT_MISSING);
        assertThat(outcome.missingParent()).isEqualTo(root + "/p");
        assertThat(stat(root + "/p")).isNull();
    }

    @Test
    @DisplayName(
            "a compare-and-set of a node deleted since it was read reports it gone, creating"
                    + " nothing")
    void nodeGone() throws Exception {
        WriteOutcome outcome =
                write.send(
                        deadline(),
                        "n",
                        NodeChange.replace(root + "/n", 3, bytes("1"), bytes("2")));
        assertThat(outcome.kind()).isEqualTo(WriteOutcome.Kind.NODE_GONE);
        assertThat(stat(root + "/n")).isNull();
    }

    @Test
    @DisplayName(
            "at the version wrap, a missing claim root is the parent named, and nothing is written")
    void claimRootMissing() throws Exception {
        client.create().forPath(root + "/n", bytes("1"));
        NodeChange atWrap = NodeChange.replace(root + "/n", -1, bytes("1"), bytes("2"));
        WriteOutcome outcome = write.send(deadline(), "n", atWrap);
        assertThat(outcome.kind()).isEqualTo(WriteOutcome.Kind.PARENT_MISSING);
        assertThat(outcome.missingParent()).isEqualTo("/writes/.wrap");
        assertThat(data(root + "/n")).isEqualTo("1");
    }

    @Test
    @DisplayName("changes sent together land together or not at all")
    void changesAreOneTransaction() throws Exception {
        client.create().forPath(root + "/a", bytes("1"));
        client.create().forPath(root + "/b", bytes("1"));
        client.setData().forPath(root + "/b", bytes("moved"));
        WriteOutcome failed =
                write.send(
                        deadline(),
                        "a and b",
                        NodeChange.replace(root + "/a", 0, bytes("1"), bytes("2")),
                        NodeChange.replace(root + "/b", 0, bytes("1"), bytes("2")));
        assertThat(failed.kind()).isEqualTo(WriteOutcome.Kind.LOST_RACE);
        assertThat(data(root + "/a")).isEqualTo("1");

        WriteOutcome landed =
                write.send(
                        deadline(),
                        "a and c",
                        NodeChange.replace(root + "/a", 0, bytes("1"), bytes("2")),
                        NodeChange.create(root + "/c", bytes("new")));
        assertThat(landed.landed()).isTrue();
        assertThat(landed.stat(0).getVersion()).isEqualTo(1);
        assertThat(landed.stat(0).getMzxid()).isEqualTo(landed.anyStat().getMzxid());
        assertThat(data(root + "/a")).isEqualTo("2");
        assertThat(data(root + "/c")).isEqualTo("new");
    }
}
