package io.cosid.store.zookeeper.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosid.store.Range;
import io.cosid.store.SlotLease;
import io.cosid.store.Store;
import io.cosid.store.spi.ObservedStore;
import io.cosid.store.zookeeper.ZooKeeperFixture;
import io.cosid.store.zookeeper.harness.FourLetterWords;
import io.cosid.store.zookeeper.harness.ZooKeeperServerExtension;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.stream.IntStream;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.ZooDefs;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Round trips are the cost that matters: counted by the store's own client (sequential round trips
 * and requests) and cross-checked with the server's transaction counter (zxid). A regression fails
 * the build.
 */
@DisplayName("Round trips per operation on ZooKeeper")
class RoundTripTest {

    @RegisterExtension
    static final ZooKeeperServerExtension SERVER = ZooKeeperServerExtension.primary();

    private final ZooKeeperFixture fixture = new ZooKeeperFixture(SERVER.server());
    private final ZooKeeperStore store = (ZooKeeperStore) ObservedStore.unwrap(fixture.openStore());

    @AfterEach
    void close() {
        fixture.close();
    }

    private int port() {
        String first = SERVER.server().connectString().split(",", -1)[0];
        return Integer.parseInt(first.substring(first.lastIndexOf(':') + 1));
    }

    /** Runs an operation and returns {round trips, requests, transactions}. */
    private long[] cost(Runnable operation) {
        long rt = store.roundTrips().roundTrips();
        long req = store.roundTrips().requests();
        long zxid = FourLetterWords.zxid(port());
        operation.run();
        return new long[] {
            store.roundTrips().roundTrips() - rt,
            store.roundTrips().requests() - req,
            FourLetterWords.zxid(port()) - zxid
        };
    }

    @Test
    @DisplayName(
            "a steady-state range acquire is one write: 1 round trip, 1 request, 1 transaction")
    void rangeAcquire() {
        // the first acquire creates the key's node, the second its line (once per key)
        store.ranges().acquire("orders", 100);
        store.ranges().acquire("orders", 100);
        for (int i = 0; i < 5; i++) {
            assertThat(cost(() -> store.ranges().acquire("orders", 100))).containsExactly(1, 1, 1);
        }
    }

    @Test
    @DisplayName(
            "concurrent acquires on one key in one store are coalesced: fewer writes than acquires,"
                    + " no race lost")
    void coalescedAcquires() throws Exception {
        store.ranges().acquire("orders", 1); // creates the key's node
        store.ranges().acquire("orders", 1); // and its line
        int threads = 16;
        int each = 8;
        CyclicBarrier start = new CyclicBarrier(threads);
        List<Range> ranges = Collections.synchronizedList(new ArrayList<>());
        long[] cost =
                cost(
                        () -> {
                            List<Thread> running = new ArrayList<>();
                            for (int t = 0; t < threads; t++) {
                                int size = t + 1;
                                Thread thread =
                                        new Thread(
                                                () -> {
                                                    try {
                                                        start.await();
                                                    } catch (Exception e) {
                                                        throw new IllegalStateException(e);
                                                    }
                                                    for (int i = 0; i < each; i++) {
                                                        ranges.add(
                                                                store.ranges()
                                                                        .acquire("orders", size));
                                                    }
                                                });
                                thread.start();
                                running.add(thread);
                            }
                            running.forEach(
                                    t -> {
                                        try {
                                            t.join();
                                        } catch (InterruptedException e) {
                                            throw new IllegalStateException(e);
                                        }
                                    });
                        });
        assertThat(ranges).hasSize(threads * each);
        List<Range> sorted =
                ranges.stream().sorted(Comparator.comparingLong(Range::start)).toList();
        long expected = 2;
        for (Range r : sorted) {
            assertThat(r.start())
                    .as("ranges are disjoint and, with no other writer, contiguous")
                    .isEqualTo(expected);
            expected = r.end();
        }
        assertThat(expected).isEqualTo(2 + (long) each * threads * (threads + 1) / 2);
        assertThat(cost[2])
                .as("transactions (one write per turn, and no lost races inside one store)")
                .isLessThan((long) threads * each)
                .isEqualTo(cost[1]);
    }

    @Test
    @DisplayName(
            "the first acquire of a new key reads it and creates it: 2 round trips, 2 requests, 1"
                    + " transaction")
    void firstUseOfKey() {
        store.ranges().acquire("orders", 10); // the range root exists
        assertThat(cost(() -> store.ranges().acquire("invoices", 10))).containsExactly(2, 2, 1);
    }

    /**
     * This store writes the key, {@code other} writes it, and this store's next acquire loses one
     * race to that write (then reads and lands): 30 values used.
     */
    private void loseOnceTo(Store other) {
        store.ranges().acquire("orders", 10);
        other.ranges().acquire("orders", 10);
        store.ranges().acquire("orders", 10);
    }

    @Test
    @DisplayName(
            "a key another process writes in between is read before the write: 2 round trips, 2"
                    + " requests, as a read and a compare-and-set, with no failed write")
    void keyWrittenInBetween() {
        try (Store other = fixture.openStore()) {
            loseOnceTo(other);
            other.ranges().acquire("orders", 10);
            Range[] got = new Range[1];
            long[] cost = cost(() -> got[0] = store.ranges().acquire("orders", 10));
            assertThat(got[0].start()).isEqualTo(40);
            assertThat(cost)
                    .as(
                            "round trips, requests (one read multi of the key and its line, the"
                                    + " write), transactions")
                    .containsExactly(2, 2, 1);
        }
    }

    @Test
    @DisplayName(
            "once a read shows the key as this store left it, the next acquire writes without"
                    + " reading first: 1 round trip")
    void keyLeftAlone() {
        try (Store other = fixture.openStore()) {
            loseOnceTo(other);
            store.ranges().acquire("orders", 10); // reads first and finds its own write
            assertThat(cost(() -> store.ranges().acquire("orders", 10)))
                    .as("round trips, requests (the write alone), transactions")
                    .containsExactly(1, 1, 1);
        }
    }

    @Test
    @DisplayName(
            "a race lost to a write nobody else waits behind costs a read and another write: 3"
                    + " round trips, 3 requests, no seat")
    void lostRaceAlone() {
        try (Store other = fixture.openStore()) {
            loseOnceTo(other);
            store.ranges().acquire("orders", 10); // reads first and finds its own write
            other.ranges().acquire("orders", 10);
            Range[] got = new Range[1];
            long[] cost = cost(() -> got[0] = store.ranges().acquire("orders", 10));
            assertThat(got[0].start()).isEqualTo(50);
            assertThat(cost)
                    .as(
                            "round trips and requests (failed write, read multi, write),"
                                    + " transactions (a failed multi is one too)")
                    .containsExactly(3, 3, 2);
        }
    }

    @Test
    @DisplayName(
            "a slot acquire that hits the owner index among the first 32 slots takes 2 sequential"
                    + " round trips and 2 transactions")
    void ownerIndexHit() {
        store.slots().define("workers", 1024, Duration.ofSeconds(1));
        SlotLease first = store.slots().acquire("workers", "host-7", Duration.ofSeconds(30));
        store.slots().release(first);
        long[] cost = ownerIndexHitCost(first.slot());
        assertThat(cost[0]).as("sequential round trips").isEqualTo(2);
        assertThat(cost[1])
                .as(
                        "requests: the clock write and one read multi (namespace, index, first 32"
                                + " slots) | the write multi")
                .isEqualTo(3);
        assertThat(cost[2]).as("transactions: the clock write and the acquire multi").isEqualTo(2);
    }

    /** The cost of host-7's acquire, which must come back to {@code slot} (its index lists it). */
    private long[] ownerIndexHitCost(int slot) {
        return cost(
                () ->
                        assertThat(
                                        store.slots()
                                                .acquire(
                                                        "workers", "host-7", Duration.ofSeconds(30))
                                                .slot())
                                .isEqualTo(slot));
    }

    @Test
    @DisplayName(
            "a slot acquire that hits the owner index past the first 32 slots takes 3 sequential"
                    + " round trips")
    void ownerIndexHitPastFirstBatch() {
        store.slots().define("workers", 1024, Duration.ofSeconds(1));
        SlotLease first = store.slots().acquire("workers", "host-7", Duration.ofSeconds(30), 40);
        store.slots().release(first);
        assertThat(ownerIndexHitCost(40))
                .as(
                        "round trips, requests (clock, read multi of namespace, index, first 32"
                                + " slots | slot 40 | write multi), transactions")
                .containsExactly(3, 4, 2);
    }

    @Test
    @DisplayName(
            "a fresh acquire in a namespace with a free slot among the first 32 takes 2 round"
                    + " trips and 3 requests")
    void freshAcquire() {
        store.slots().define("workers", 1024, Duration.ofSeconds(1));
        for (int i = 0; i < 20; i++) {
            store.slots().acquire("workers", "host-" + i, Duration.ofSeconds(30));
        }
        assertThat(cost(() -> store.slots().acquire("workers", "new-host", Duration.ofSeconds(30))))
                .containsExactly(2, 3, 2);
    }

    @Test
    @DisplayName(
            "a fresh acquire in a 1024-slot namespace with 1000 slots held takes at most 4 round"
                    + " trips")
    void crowdedNamespace() throws Exception {
        store.slots().define("crowd", 1024, Duration.ofSeconds(1));
        holdByHand("crowd", IntStream.range(0, 1000));
        Acquired acquired = acquireCounted("crowd", "new-host");
        long[] cost = acquired.cost();
        assertThat(acquired.slot()).isEqualTo(1000);
        assertThat(cost[0])
                .as("sequential round trips: clock and 32, 256, the other 736, write")
                .isLessThanOrEqualTo(4);
        assertThat(cost[2]).as("transactions").isEqualTo(2);
    }

    /** A slot acquired and what the acquire cost: {round trips, requests, transactions}. */
    private record Acquired(int slot, long[] cost) {}

    private Acquired acquireCounted(String ns, String ownerKey) {
        SlotLease[] lease = new SlotLease[1];
        long[] cost =
                cost(() -> lease[0] = store.slots().acquire(ns, ownerKey, Duration.ofSeconds(30)));
        return new Acquired(lease[0].slot(), cost);
    }

    /**
     * Writes held slot nodes by hand (a day-long term each), as many instances would have: faster
     * than acquiring them one by one.
     */
    private void holdByHand(String ns, IntStream slots) throws Exception {
        long expires = System.currentTimeMillis() + Duration.ofDays(1).toMillis();
        List<Op> ops = new ArrayList<>();
        for (int slot : slots.toArray()) {
            String data =
                    "state=held\nowner=h"
                            + slot
                            + "\nlastOwner=h"
                            + slot
                            + "\nincarnation=1\nfence=1\n"
                            + "ttl=86400000\ntolerance=1000\nfloor=0\nexpiresMin="
                            + expires
                            + "\nceilingMin=0\nnextFloor=0\n"
                            + "nonce=n"
                            + slot
                            + "\n";
            ops.add(
                    Op.create(
                            fixture.root() + "/slot/" + ns + "/" + slot,
                            data.getBytes(StandardCharsets.UTF_8),
                            ZooDefs.Ids.OPEN_ACL_UNSAFE,
                            CreateMode.PERSISTENT));
            if (ops.size() == 100) {
                fixture.admin().getZookeeperClient().getZooKeeper().multi(ops);
                ops.clear();
            }
        }
        if (!ops.isEmpty()) {
            fixture.admin().getZookeeperClient().getZooKeeper().multi(ops);
        }
    }

    @Test
    @DisplayName(
            "a fresh acquire with no race takes the lowest free slot, even past the first batch"
                    + " and below slot nodes that exist")
    void lowestFreePastFirstBatch() throws Exception {
        store.slots().define("holes", 1024, Duration.ofSeconds(1));
        holdByHand("holes", IntStream.range(0, 100).filter(slot -> slot != 40));
        assertThat(store.slots().acquire("holes", "new-host", Duration.ofSeconds(30)).slot())
                .isEqualTo(40);
    }

    @Test
    @DisplayName(
            "a first attempt whose hinted slot lies past the first batch and past the slot nodes"
                    + " creates it without reading it: 2 round trips, 3 requests")
    void hintedSlotPastTheSlotNodes() throws Exception {
        store.slots().define("herd", 1024, Duration.ofSeconds(1));
        for (int i = 0; i < 3; i++) {
            store.slots().acquire("herd", "host-" + i, Duration.ofSeconds(30));
        }
        // one attempt under way since a landing on slot 99
        hintUnderWay("herd", 99);
        Acquired acquired = acquireCounted("herd", "new-host");
        long[] cost = acquired.cost();
        assertThat(acquired.slot()).isEqualTo(101);
        assertThat(cost).containsExactly(2, 3, 2);
    }

    @Test
    @DisplayName(
            "a first attempt whose hinted slot lies among the slot nodes reads its window first: 3"
                    + " round trips, 4 requests")
    void hintedSlotAmongTheSlotNodes() throws Exception {
        store.slots().define("herd", 1024, Duration.ofSeconds(1));
        holdByHand("herd", IntStream.range(0, 200).filter(slot -> slot != 101));
        hintUnderWay("herd", 99);
        Acquired acquired = acquireCounted("herd", "new-host");
        long[] cost = acquired.cost();
        assertThat(acquired.slot()).isEqualTo(101);
        assertThat(cost).containsExactly(3, 4, 2);
    }

    /**
     * Makes the next acquire's first attempt count one attempt under way since a landing on {@code
     * slot}: its position is 1 from the slot after it.
     */
    private void hintUnderWay(String ns, int slot) throws Exception {
        String clock = fixture.root() + "/slot/" + ns + "/.clock";
        int ticket = fixture.admin().checkExists().forPath(clock).getVersion();
        fixture.admin()
                .setData()
                .forPath(
                        fixture.root() + "/owner/" + ns,
                        (ticket + ":" + slot).getBytes(StandardCharsets.UTF_8));
        fixture.admin().setData().forPath(clock, new byte[0]);
    }

    @Test
    @DisplayName("renew and release are one conditional write each: 1 round trip, 1 transaction")
    void renewAndRelease() {
        store.slots().define("workers", 4, Duration.ofSeconds(1));
        SlotLease lease = store.slots().acquire("workers", "host-7", Duration.ofSeconds(30));
        SlotLease[] renewed = new SlotLease[1];
        assertThat(cost(() -> renewed[0] = store.slots().renew(lease)))
                .as(
                        "the first write over a node this store created reads it first: a node"
                            + " deleted and created again behind the store's back starts at version"
                            + " 0 too")
                .containsExactly(2, 2, 1);
        assertThat(cost(() -> renewed[0] = store.slots().renew(renewed[0])))
                .containsExactly(1, 1, 1);
        assertThat(cost(() -> store.slots().release(renewed[0]))).containsExactly(1, 1, 1);
        SlotLease again = store.slots().acquire("workers", "host-7", Duration.ofSeconds(30));
        assertThat(cost(() -> store.slots().renew(again)))
                .as("a slot node written before")
                .containsExactly(1, 1, 1);
    }
}
