package io.cosid.store.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cosid.store.SlotLease;
import io.cosid.store.SlotsExhaustedException;
import io.cosid.store.Store;
import io.cosid.store.StoreCorruptedException;
import io.cosid.store.zookeeper.harness.ZooKeeperServerExtension;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The landing hint of store-zookeeper/README.md ("Choice order under concurrency"): the first
 * attempt of an acquire takes the free slot at the position of the attempts under way before it,
 * read from the clock's version (acquire attempts only) and the hint (the ticket of the last
 * attempt that finished), and acquires one after another always take the lowest free slot, whatever
 * else runs in between.
 */
@DisplayName("The landing hint on ZooKeeper")
class LandingHintTest {

    private static final Duration TTL = Duration.ofSeconds(30);

    @RegisterExtension
    static final ZooKeeperServerExtension SERVER = ZooKeeperServerExtension.primary();

    private final ZooKeeperFixture fixture = new ZooKeeperFixture(SERVER.server());
    private final Store store = fixture.openStore();

    @AfterEach
    void close() {
        fixture.close();
    }

    @Test
    @DisplayName(
            "each landing acquire writes its ticket (the clock's version after its clock write)"
                    + " and its slot")
    void landingWritesItsTicket() throws Exception {
        store.slots().define("workers", 16, Duration.ofSeconds(1));
        for (int i = 0; i < 3; i++) {
            store.slots().acquire("workers", "host-" + i, TTL);
            assertThat(fixture.raw("/owner/workers")).isEqualTo(clockVersion("workers") + ":" + i);
        }
    }

    @Test
    @DisplayName(
            "acquires one after another take the lowest free slot with inspect, advance, release"
                    + " and an exhausted acquire in between")
    void sequentialStaysLowest() {
        store.slots().define("workers", 4, Duration.ofSeconds(1));
        SlotLease[] held = new SlotLease[4];
        for (int i = 0; i < 4; i++) {
            store.slots().inspect("workers");
            held[i] = store.slots().acquire("workers", "host-" + i, TTL);
            assertThat(held[i].slot()).isEqualTo(i);
        }
        assertThatThrownBy(() -> store.slots().acquire("workers", "host-9", TTL))
                .isInstanceOf(SlotsExhaustedException.class);
        assertThatThrownBy(() -> store.slots().acquire("workers", "host-9", TTL))
                .isInstanceOf(SlotsExhaustedException.class);
        store.slots().release(held[3]);
        store.slots().release(held[1]);
        store.slots().advance("workers", 3, 5, Instant.EPOCH);
        store.slots().inspect("workers");
        assertThat(store.slots().acquire("workers", "host-10", TTL).slot()).isEqualTo(1);
        assertThat(store.slots().acquire("workers", "host-11", TTL).slot()).isEqualTo(3);
    }

    @Test
    @DisplayName(
            "acquires refused for corrupt data finish their tickets: the next acquire takes the"
                    + " lowest free slot")
    void refusedAttemptsFinish() throws Exception {
        store.slots().define("workers", 8, Duration.ofSeconds(1));
        store.slots().release(store.slots().acquire("workers", "host-a", TTL));
        store.slots().acquire("workers", "host-0", TTL);
        String namespace = fixture.raw("/slot/workers");
        fixture.corruptNamespace("workers", "garbage");
        for (int i = 0; i < 2; i++) {
            assertThatThrownBy(() -> store.slots().acquire("workers", "host-x", TTL))
                    .isInstanceOf(StoreCorruptedException.class);
        }
        fixture.admin()
                .setData()
                .forPath(
                        fixture.root() + "/slot/workers",
                        namespace.getBytes(StandardCharsets.UTF_8));
        fixture.corruptOwnerIndex("workers", "host-a", "zero,one");
        assertThatThrownBy(() -> store.slots().acquire("workers", "host-a", TTL))
                .isInstanceOf(StoreCorruptedException.class);
        fixture.corruptSlot("workers", 1, "garbage");
        assertThatThrownBy(() -> store.slots().acquire("workers", "host-y", TTL))
                .isInstanceOf(StoreCorruptedException.class);
        assertThat(fixture.raw("/owner/workers"))
                .isEqualTo(String.valueOf(clockVersion("workers")));
        fixture.admin().delete().forPath(fixture.root() + "/slot/workers/1");
        assertThat(store.slots().acquire("workers", "host-1", TTL).slot())
                .as("three refused acquires in between: still the lowest free slot")
                .isEqualTo(1);
    }

    @Test
    @DisplayName(
            "a first attempt with two attempts under way since the last landing takes the third"
                    + " lowest free slot")
    void attemptsUnderWaySpreadTheFirstAttempt() throws Exception {
        store.slots().define("workers", 64, Duration.ofSeconds(1));
        store.slots().acquire("workers", "host-0", TTL);
        store.slots().acquire("workers", "host-1", TTL);
        // two attempts wrote the clock after the last landing and have not landed yet
        int lastLanded = clockVersion("workers");
        touchClock("workers");
        touchClock("workers");
        assertThat(store.slots().acquire("workers", "host-2", TTL).slot())
                .as("free slots 2, 3, 4, ...: position 2 among them")
                .isEqualTo(4);
        assertThat(lastLanded + 3).isEqualTo(clockVersion("workers"));
        assertThat(fixture.raw("/owner/workers")).isEqualTo(clockVersion("workers") + ":4");
        assertThat(store.slots().acquire("workers", "host-3", TTL).slot())
                .as("after that landing, the lowest free slot again")
                .isEqualTo(2);
    }

    @Test
    @DisplayName(
            "a first attempt counts its position from the slot after the one the last landing took")
    void positionCountsFromTheLastLandedSlot() throws Exception {
        store.slots().define("workers", 64, Duration.ofSeconds(1));
        for (int i = 0; i < 3; i++) {
            store.slots().acquire("workers", "host-" + i, TTL);
        }
        // one attempt under way since an acquire that landed on slot 10
        setHint("workers", clockVersion("workers") + ":10");
        touchClock("workers");
        assertThat(store.slots().acquire("workers", "host-3", TTL).slot())
                .as("free slots from 11: position 1 among them")
                .isEqualTo(12);
        assertThat(store.slots().acquire("workers", "host-4", TTL).slot())
                .as("after that landing, the lowest free slot again")
                .isEqualTo(3);
    }

    @Test
    @DisplayName(
            "a first attempt counts slots, not free ones, after the last landed slot: attempts"
                    + " under way that landed first do not push it further")
    void attemptsThatLandedOutOfOrder() throws Exception {
        store.slots().define("workers", 64, Duration.ofSeconds(1));
        for (int i = 0; i < 3; i++) {
            store.slots().acquire("workers", "host-" + i, TTL);
        }
        // the hint names ticket t on slot 10; tickets t+1 and t+2 landed on slots 11 and 12 before
        // t did (their hints were overwritten), and ticket t+3 is still under way
        assertThat(store.slots().acquire("workers", "early-11", TTL, 11).slot()).isEqualTo(11);
        assertThat(store.slots().acquire("workers", "early-12", TTL, 12).slot()).isEqualTo(12);
        setHint("workers", (clockVersion("workers") - 2) + ":10");
        touchClock("workers");
        assertThat(store.slots().acquire("workers", "host-3", TTL).slot())
                .as("ticket t+4: four slots after slot 10, the one of t+3 left to it")
                .isEqualTo(14);
    }

    @Test
    @DisplayName(
            "a hinted slot that another store created past the slot nodes this store counted is a"
                    + " lost race, never overwritten")
    void hintedSlotCreatedByAnother() throws Exception {
        store.slots().define("workers", 1024, Duration.ofSeconds(1));
        for (int i = 0; i < 3; i++) {
            store.slots().acquire("workers", "host-" + i, TTL);
        }
        SlotLease other = fixture.openStore().slots().acquire("workers", "other", TTL, 101);
        String held = fixture.raw("/slot/workers/101");
        // one attempt under way since a landing on slot 99: position 1 from slot 100 is slot 101
        setHint("workers", clockVersion("workers") + ":99");
        touchClock("workers");
        SlotLease mine = store.slots().acquire("workers", "host-3", TTL);
        assertThat(mine.slot()).isNotEqualTo(other.slot());
        assertThat(fixture.raw("/slot/workers/101")).isEqualTo(held);
    }

    @Test
    @DisplayName(
            "a hint past every free slot falls back to the position among the free slots from"
                    + " slot 0, never to exhaustion")
    void hintPastTheFreeSlots() throws Exception {
        store.slots().define("workers", 64, Duration.ofSeconds(1));
        for (int i = 0; i < 3; i++) {
            store.slots().acquire("workers", "host-" + i, TTL);
        }
        for (int slot = 61; slot < 64; slot++) {
            assertThat(store.slots().acquire("workers", "high-" + slot, TTL, slot).slot())
                    .isEqualTo(slot);
        }
        setHint("workers", clockVersion("workers") + ":60");
        touchClock("workers");
        assertThat(store.slots().acquire("workers", "host-3", TTL).slot())
                .as("slots 61-63 held: position 1 among the free slots 3, 4, ...")
                .isEqualTo(4);
    }

    @Test
    @DisplayName("a tampered hint only moves a choice and is overwritten by the next landing")
    void tamperedHint() throws Exception {
        store.slots().define("workers", 64, Duration.ofSeconds(1));
        store.slots().acquire("workers", "host-0", TTL);
        for (String garbage :
                new String[] {"not a ticket", "99999999", "-5", "", "-5:-3", "-5:99999999999"}) {
            setHint("workers", garbage);
            SlotLease lease = store.slots().acquire("workers", "host-" + garbage, TTL);
            assertThat(fixture.raw("/owner/workers"))
                    .isEqualTo(clockVersion("workers") + ":" + lease.slot());
            if (!garbage.equals("-5")) {
                assertThat(lease.slot()).as("no usable hint: the lowest free slot").isEqualTo(1);
            } else {
                assertThat(lease.slot())
                        .as("a hint far behind: a position inside the namespace")
                        .isBetween(1, 63);
            }
            store.slots().release(lease);
        }
    }

    private int clockVersion(String ns) throws Exception {
        return fixture.admin()
                .checkExists()
                .forPath(fixture.root() + "/slot/" + ns + "/.clock")
                .getVersion();
    }

    private void touchClock(String ns) throws Exception {
        fixture.admin().setData().forPath(fixture.root() + "/slot/" + ns + "/.clock", new byte[0]);
    }

    private void setHint(String ns, String data) throws Exception {
        fixture.admin()
                .setData()
                .forPath(fixture.root() + "/owner/" + ns, data.getBytes(StandardCharsets.UTF_8));
    }
}
