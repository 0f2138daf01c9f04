package io.cosid.store.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cosid.store.Range;
import io.cosid.store.RangeSealedException;
import io.cosid.store.Store;
import io.cosid.store.StoreCorruptedException;
import io.cosid.store.StoreTimeoutException;
import io.cosid.store.tck.HistoryChecker;
import io.cosid.store.tck.HistoryRecorder;
import io.cosid.store.zookeeper.harness.ZooKeeperProxy;
import io.cosid.store.zookeeper.harness.ZooKeeperServerExtension;
import io.cosid.store.zookeeper.internal.StoreInternals;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A writer waiting in a key's line (docs/contract.md, "Liveness under contention"): the proxy in
 * front of the waiting writer holds its replies, so the order in which writes land is forced, and
 * the ranges (the server's commit order) show who served whom.
 *
 * <p>How the waiting writer gets its seat ({@link #seatedWriter}): it loses one race to a write it
 * did not see, the proxy holds the reply to its next read while the other store writes again, so
 * its next write loses too; after two lost races it posts a seat and reads, and the proxy holds
 * that read's reply while the test acts.
 */
@DisplayName("A writer waiting in a key's line")
class SeatsTest {

    @RegisterExtension
    static final ZooKeeperServerExtension SERVER = ZooKeeperServerExtension.primary();

    private static final String KEY = "hot";
    private static final Duration BUDGET = Duration.ofSeconds(20);
    private static final Duration AWAIT = Duration.ofSeconds(30);

    /** Replaced by a fixture with credentials in the test of the creator ACL. */
    private ZooKeeperFixture fixture = new ZooKeeperFixture(SERVER.server());

    private final ExecutorService pool = Executors.newCachedThreadPool();
    private final List<Store> stores = new ArrayList<>();
    private final List<ZooKeeperProxy> proxies = new ArrayList<>();
    private final HistoryRecorder recorder = new HistoryRecorder();

    @AfterEach
    void close() {
        proxies.forEach(ZooKeeperProxy::release);
        pool.shutdownNow();
        stores.forEach(Store::close);
        proxies.forEach(ZooKeeperProxy::close);
        fixture.close();
    }

    @Test
    @DisplayName("is served by the next write that lands on the key, whoever sends it")
    void servedByTheNextWrite() throws Exception {
        ZooKeeperProxy proxy = proxy();
        Store waiter = open(proxy, BUDGET);
        Store other = open(null, BUDGET);
        Future<Range> waiting = seatedWriter(proxy, waiter, other);

        Range next = recorder.acquire(other.ranges(), KEY, 1);
        Range later = recorder.acquire(other.ranges(), KEY, 1); // before the waiter hears back
        proxy.release();

        assertThat(waiting.get(30, TimeUnit.SECONDS).start())
                .as("the waiting writer's range starts where the next landed write's ends")
                .isEqualTo(next.end());
        assertThat(later.start()).as("the write after it").isEqualTo(next.end() + 1);
        assertThat(seats()).as("the seats").isEmpty();
        recorder.acquire(waiter.ranges(), KEY, 1); // deletes the result it read
        assertThat(fixture.admin().getChildren().forPath(line())).as("the line").isEmpty();
        HistoryChecker.check(recorder.events()).assertValid();
    }

    @Test
    @DisplayName(
            "with acl=creator and one identity for every store (auth.digest), is served by the next"
                    + " write as with an open ACL")
    void servedUnderTheCreatorAcl() throws Exception {
        fixture.close();
        fixture = new ZooKeeperFixture(SERVER.server(), Map.of("auth.digest", "fleet:secret"));
        ZooKeeperProxy proxy = proxy();
        Store waiter = open(proxy, BUDGET);
        Store other = open(null, BUDGET);
        Future<Range> waiting = seatedWriter(proxy, waiter, other);
        String seat = line() + "/" + seats().get(0);
        assertThat(fixture.admin().getACL().forPath(seat))
                .as("the seat's ACL: its creator's identity alone")
                .extracting(acl -> acl.getId().getScheme())
                .containsExactly("digest");

        Range next = recorder.acquire(other.ranges(), KEY, 1);
        proxy.release();

        assertThat(waiting.get(30, TimeUnit.SECONDS).start()).isEqualTo(next.end());
        HistoryChecker.check(recorder.events()).assertValid();
    }

    @Test
    @DisplayName(
            "that gives up after a write served it leaves a gap: its seat and result are gone,"
                    + " the values counted as given up, nobody gets them")
    void givesUpAfterBeingServed() throws Exception {
        ZooKeeperProxy proxy = proxy();
        Store waiter = open(proxy, Duration.ofSeconds(4));
        Store other = open(null, BUDGET);
        Future<Range> waiting = seatedWriter(proxy, waiter, other);
        Range served = recorder.acquire(other.ranges(), KEY, 1); // serves the seat, unseen

        // the waiter's budget ends while its read's reply is held: it leaves its seat, which a
        // write already served, so it deletes the result instead
        assertThatThrownBy(() -> waiting.get(30, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(StoreTimeoutException.class);
        proxy.release();
        awaitLineEmpty();

        Awaitility.await()
                .atMost(AWAIT)
                .untilAsserted(
                        () ->
                                assertThat(StoreInternals.rangeWaste(waiter)[1])
                                        .as("values given up")
                                        .isEqualTo(1));
        assertThat(recorder.acquire(other.ranges(), KEY, 1).start())
                .as("after the gap the seat's range left")
                .isEqualTo(served.end() + 1);
        HistoryChecker.check(recorder.events()).assertValid();
    }

    @Test
    @DisplayName(
            "whose session ends before a write that names its seat lands: that write fails and is"
                    + " sent again without it, no value skipped")
    void seatGoneBeforeTheWrite() throws Exception {
        ZooKeeperProxy proxy = proxy();
        Store writer = open(proxy, BUDGET);
        Range last = useKey(writer);
        String seat;
        try (CuratorFramework gone = client()) {
            // another process's seat, posted as a store posts one (the line's version bumped)
            seat =
                    gone.create()
                            .withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
                            .forPath(line() + "/s-0-5-other-");
            gone.setData().forPath(line(), new byte[0]);
            proxy.holdReplyToNext(ZooKeeperProxy.READ_MULTI);
            Future<Range> writing = pool.submit(() -> recorder.acquire(writer.ranges(), KEY, 1));
            Awaitility.await().atMost(AWAIT).until(proxy::holding); // it read the seat
            gone.close(); // its session ends: the seat goes
            Awaitility.await()
                    .atMost(AWAIT)
                    .until(() -> fixture.admin().checkExists().forPath(seat) == null);
            proxy.release();
            assertThat(writing.get(30, TimeUnit.SECONDS).start())
                    .as("the writer's range, right after the last")
                    .isEqualTo(last.end());
        }
        assertThat(fixture.admin().getChildren().forPath(line()))
                .as("no result for the seat that went")
                .isEmpty();
        HistoryChecker.check(recorder.events()).assertValid();
    }

    @Test
    @DisplayName(
            "served by a write whose reply was lost gets that write's range; the lost write's own"
                    + " range is a gap")
    void servedByAWriteOfUnknownOutcome() throws Exception {
        ZooKeeperProxy proxy = proxy();
        ZooKeeperProxy otherProxy = proxy();
        Store waiter = open(proxy, BUDGET);
        Store other = open(otherProxy, BUDGET);
        Future<Range> waiting = seatedWriter(proxy, waiter, other);
        long before = other.ranges().peek(KEY).orElseThrow().next(); // it sees the seat too

        otherProxy.dropReplyToNext(ZooKeeperProxy.MULTI); // the write that serves the seat
        Range after = recorder.acquire(other.ranges(), KEY, 1);
        proxy.release();

        assertThat(waiting.get(30, TimeUnit.SECONDS))
                .as("the seat's range, from the write whose reply was lost")
                .isEqualTo(new Range(KEY, before + 1, before + 2));
        assertThat(after.start()).as("the writer's next range").isEqualTo(before + 2);
        assertThat(otherProxy.dropped()).isEqualTo(1);
        assertThat(StoreInternals.rangeWaste(other)[0])
                .as("values of unknown outcome")
                .isEqualTo(1);
        assertThat(seats()).as("the seats").isEmpty();
        HistoryChecker.check(recorder.events()).assertValid();
    }

    @Test
    @DisplayName(
            "that never comes for its range: the store that served it deletes the result once"
                    + " four of its timeouts have passed")
    void resultNobodyCameFor() throws Exception {
        Store store = open(null, Duration.ofMillis(500));
        useKey(store);
        String seat =
                fixture.admin()
                        .create()
                        .withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
                        .forPath(line() + "/s-0-5-gone-");
        fixture.admin().setData().forPath(line(), new byte[0]);
        recorder.acquire(store.ranges(), KEY, 1);
        String result = line() + "/r-" + seat.substring(seat.lastIndexOf('/') + 1);
        assertThat(fixture.admin().checkExists().forPath(result)).as("the result").isNotNull();

        // the store looks at the line whenever it reads the key: peek is such a read
        Awaitility.await()
                .atMost(AWAIT)
                .pollInterval(Duration.ofMillis(200))
                .until(
                        () -> {
                            store.ranges().peek(KEY);
                            return fixture.admin().checkExists().forPath(result) == null;
                        });
        HistoryChecker.check(recorder.events()).assertValid();
    }

    @Test
    @DisplayName(
            "beyond the 64 one write serves, oldest first, is served by the next write; every"
                    + " range stays disjoint")
    void atMostSixtyFourSeatsPerWrite() throws Exception {
        Store store = open(null, BUDGET);
        useKey(store);
        int seated = 65;
        List<String> seats = new ArrayList<>();
        for (int i = 0; i < seated; i++) {
            // order i: the seats sort oldest first as planted; two values each
            String path = line() + String.format("/s-%d-2-planted%02d", i, i);
            fixture.admin().create().withMode(CreateMode.EPHEMERAL).forPath(path);
            seats.add(path.substring(path.lastIndexOf('/') + 1));
        }
        fixture.admin().setData().forPath(line(), new byte[0]); // as a post bumps the line

        Range first = recorder.acquire(store.ranges(), KEY, 1);
        assertThat(seats())
                .as("the seat left after one write: the newest")
                .containsExactly(seats.get(seated - 1));
        Range second = recorder.acquire(store.ranges(), KEY, 1);
        assertThat(seats()).as("the seats after the next write").isEmpty();

        List<long[]> served = new ArrayList<>();
        for (String seat : seats) {
            byte[] data = fixture.admin().getData().forPath(line() + "/r-" + seat);
            String range = new String(data, StandardCharsets.US_ASCII);
            int colon = range.indexOf(':');
            served.add(
                    new long[] {
                        Long.parseLong(range.substring(0, colon)),
                        Long.parseLong(range.substring(colon + 1))
                    });
        }
        for (int i = 0; i < seated - 1; i++) {
            assertThat(served.get(i)[0])
                    .as("seat %d served right after the first write and seat %d", i, i - 1)
                    .isEqualTo(i == 0 ? first.end() : served.get(i - 1)[1]);
            assertThat(served.get(i)[1] - served.get(i)[0]).as("its size").isEqualTo(2);
        }
        assertThat(second.start())
                .as("the second write starts after the 64 seats the first served")
                .isEqualTo(served.get(seated - 2)[1]);
        assertThat(served.get(seated - 1))
                .as("the 65th seat: served right after the second write")
                .containsExactly(second.end(), second.end() + 2);
        HistoryChecker.check(recorder.events()).assertValid();
    }

    @Test
    @DisplayName("on a key sealed meanwhile is refused, and its seat is gone")
    void keySealedWhileWaiting() throws Exception {
        ZooKeeperProxy proxy = proxy();
        Store waiter = open(proxy, BUDGET);
        Store other = open(null, BUDGET);
        Future<Range> waiting = seatedWriter(proxy, waiter, other);
        long sealedAt = other.ranges().seal(KEY);
        proxy.release();

        assertThatThrownBy(() -> waiting.get(30, TimeUnit.SECONDS))
                .hasCauseInstanceOf(RangeSealedException.class)
                .hasMessageContaining(Long.toString(sealedAt));
        awaitLineEmpty();
        HistoryChecker.check(recorder.events()).assertValid();
    }

    @Test
    @DisplayName("on a key lowered by hand meanwhile is refused, and the key is left as it is")
    void keyLoweredWhileWaiting() throws Exception {
        ZooKeeperProxy proxy = proxy();
        Store waiter = open(proxy, BUDGET);
        Store other = open(null, BUDGET);
        Future<Range> waiting = seatedWriter(proxy, waiter, other);
        fixture.rewriteRange(KEY, 1, false);
        proxy.release();

        assertThatThrownBy(() -> waiting.get(30, TimeUnit.SECONDS))
                .hasCauseInstanceOf(StoreCorruptedException.class);
        assertThat(fixture.admin().getData().forPath(fixture.root() + "/range/" + KEY))
                .as("the key, not written over")
                .asString(StandardCharsets.US_ASCII)
                .isEqualTo("1");
        HistoryChecker.check(recorder.events()).assertValid();
    }

    @Test
    @DisplayName(
            "with a line the store may not write (its ACL) gets its range by compare-and-set"
                    + " alone, no seat posted")
    void lineNotWritable() throws Exception {
        ZooKeeperProxy proxy = proxy();
        Store waiter = open(proxy, BUDGET);
        Store other = open(null, BUDGET);
        useKey(other);
        recorder.acquire(waiter.ranges(), KEY, 1);
        fixture.admin().setACL().withACL(ZooDefs.Ids.READ_ACL_UNSAFE).forPath(line());
        recorder.acquire(other.ranges(), KEY, 1);

        proxy.holdReplyToNext(ZooKeeperProxy.READ_MULTI);
        Future<Range> acquire = pool.submit(() -> recorder.acquire(waiter.ranges(), KEY, 1));
        Awaitility.await().atMost(AWAIT).until(proxy::holding);
        recorder.acquire(other.ranges(), KEY, 1); // its second lost race: it would post a seat
        proxy.release();

        assertThat(acquire.get(30, TimeUnit.SECONDS).size()).isEqualTo(1);
        assertThat(fixture.admin().getChildren().forPath(line())).isEmpty();
        HistoryChecker.check(recorder.events()).assertValid();
    }

    /**
     * Brings {@code waiter} (behind {@code proxy}) to wait in the key's line, its read after
     * posting its seat held by the proxy; returns its acquire.
     */
    private Future<Range> seatedWriter(ZooKeeperProxy proxy, Store waiter, Store other)
            throws Exception {
        useKey(other);
        recorder.acquire(waiter.ranges(), KEY, 1);
        recorder.acquire(other.ranges(), KEY, 1); // the waiter's next blind write loses to this

        proxy.holdReplyToNext(ZooKeeperProxy.READ_MULTI); // the read after its first loss
        Future<Range> acquire = pool.submit(() -> recorder.acquire(waiter.ranges(), KEY, 1));
        Awaitility.await().atMost(AWAIT).until(proxy::holding);
        recorder.acquire(other.ranges(), KEY, 1); // so its write over that read loses again
        proxy.holdReplyToNext(ZooKeeperProxy.READ_MULTI); // the read after it posted its seat
        proxy.release();
        Awaitility.await().atMost(AWAIT).until(() -> proxy.holding() && seats().size() == 1);
        return acquire;
    }

    /** Acquires the key twice with {@code store} (its node, then its line); the last range. */
    private Range useKey(Store store) {
        recorder.acquire(store.ranges(), KEY, 1);
        return recorder.acquire(store.ranges(), KEY, 1);
    }

    private List<String> seats() throws Exception {
        return fixture.admin().getChildren().forPath(line()).stream()
                .filter(c -> c.startsWith("s-"))
                .toList();
    }

    private void awaitLineEmpty() {
        Awaitility.await()
                .atMost(AWAIT)
                .until(() -> fixture.admin().getChildren().forPath(line()).isEmpty());
    }

    private String line() throws Exception {
        return fixture.root()
                + "/.line/"
                + HexFormat.of()
                        .formatHex(
                                MessageDigest.getInstance("SHA-256")
                                        .digest(KEY.getBytes(StandardCharsets.UTF_8)));
    }

    private ZooKeeperProxy proxy() {
        String target = SERVER.server().connectString();
        ZooKeeperProxy proxy =
                new ZooKeeperProxy(Integer.parseInt(target.substring(target.lastIndexOf(':') + 1)));
        proxies.add(proxy);
        return proxy;
    }

    private Store open(ZooKeeperProxy proxy, Duration timeout) {
        var config = fixture.config().withTimeout(timeout);
        Store store =
                ZooKeeperStores.open(
                        proxy == null
                                ? config
                                : config.withOption("connectString", proxy.connectString()));
        stores.add(store);
        return store;
    }

    private CuratorFramework client() throws InterruptedException {
        CuratorFramework client =
                CuratorFrameworkFactory.newClient(
                        SERVER.server().connectString(), new RetryOneTime(100));
        client.start();
        assertThat(client.blockUntilConnected(20, TimeUnit.SECONDS)).isTrue();
        return client;
    }
}
