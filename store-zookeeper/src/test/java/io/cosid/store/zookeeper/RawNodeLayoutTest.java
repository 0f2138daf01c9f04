package io.cosid.store.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosid.store.SlotLease;
import io.cosid.store.Store;
import io.cosid.store.zookeeper.harness.ZooKeeperServerExtension;
import java.time.Duration;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The nodes look exactly as store-zookeeper/README.md ("Nodes") says, read with a plain client. */
@DisplayName("The raw nodes on ZooKeeper")
class RawNodeLayoutTest {

    @RegisterExtension
    static final ZooKeeperServerExtension SERVER = ZooKeeperServerExtension.primary();

    private final ZooKeeperFixture fixture = new ZooKeeperFixture(SERVER.server());
    private final Store store = fixture.openStore();

    @AfterEach
    void close() {
        fixture.close();
    }

    @Test
    @DisplayName("a range node holds next as decimal text, with :sealed appended once sealed")
    void rangeNode() {
        store.ranges().acquire("orders", 10);
        assertThat(fixture.raw("/range/orders")).isEqualTo("10");
        store.ranges().advance("orders", 1234567890123L);
        assertThat(fixture.raw("/range/orders")).isEqualTo("1234567890123");
        store.ranges().seal("orders");
        assertThat(fixture.raw("/range/orders")).isEqualTo("1234567890123:sealed");
    }

    @Test
    @DisplayName("a nested key's parent is an empty node that counts as unused")
    void nestedKey() {
        store.ranges().acquire("orders/eu", 3);
        assertThat(fixture.raw("/range/orders/eu")).isEqualTo("3");
        assertThat(fixture.raw("/range/orders")).isEmpty();
        assertThat(store.ranges().peek("orders")).isEmpty();
        assertThat(store.ranges().list()).containsOnlyKeys("orders/eu");
        assertThat(store.ranges().acquire("orders", 5).start()).isZero();
        assertThat(fixture.raw("/range/orders")).isEqualTo("5");
    }

    @Test
    @DisplayName(
            "a namespace holds limit and tolerance, with a .clock beside its slots and a landing"
                    + " hint of 0")
    void namespaceNode() {
        store.slots().define("workers", 16, Duration.ofMillis(1500));
        assertThat(fixture.raw("/slot/workers")).isEqualTo("limit=16\ntolerance=1500\n");
        assertThat(fixture.raw("/slot/workers/.clock")).isEmpty();
        assertThat(fixture.raw("/owner/workers"))
                .as("the landing hint: the clock's version at its creation")
                .isEqualTo("0");
    }

    @Test
    @DisplayName("a slot holds name=value lines, and the owner index is written in the same multi")
    void slotNode() throws Exception {
        store.slots().define("workers", 16, Duration.ofSeconds(1));
        SlotLease lease = store.slots().acquire("workers", "host-7", Duration.ofSeconds(30));
        String slot = fixture.raw("/slot/workers/0");
        assertThat(slot)
                .matches(
                        """
                        state=held
                        owner=host-7
                        lastOwner=host-7
                        incarnation=1
                        fence=1
                        ttl=30000
                        tolerance=1000
                        floor=0
                        expiresMin=\\d+
                        ceilingMin=0
                        nextFloor=0
                        nonce=[0-9a-f-]{36}
                        """);
        assertThat(fixture.raw("/owner/workers/host-7")).startsWith("slots=0\nnonce=");
        Stat slotStat = fixture.admin().checkExists().forPath(fixture.root() + "/slot/workers/0");
        Stat indexStat =
                fixture.admin().checkExists().forPath(fixture.root() + "/owner/workers/host-7");
        assertThat(indexStat.getMzxid()).as("one transaction").isEqualTo(slotStat.getMzxid());
        long expiresMin = Long.parseLong(slot.replaceAll("(?s).*expiresMin=(\\d+).*", "$1"));
        assertThat(expiresMin)
                .as("the acquire's clock time + ttl")
                .isLessThanOrEqualTo(slotStat.getMtime() + 30000);
        assertThat(lease.expiresAt().toEpochMilli())
                .isEqualTo(Math.max(expiresMin, slotStat.getMtime() + 30000));
        assertThat(lease.fence())
                .as("the fence lives in the data, not in Stat.version")
                .isEqualTo(1);
        assertThat(slotStat.getVersion()).isZero();

        SlotLease renewed = store.slots().renew(lease);
        assertThat(fixture.raw("/slot/workers/0"))
                .contains("expiresMin=" + lease.expiresAt().toEpochMilli() + "\n")
                .contains("ceilingMin=" + lease.ceiling().toEpochMilli() + "\n")
                .contains("fence=1\n");
        store.slots().release(renewed);
        assertThat(fixture.raw("/slot/workers/0"))
                .startsWith("state=released\nowner=\nlastOwner=host-7\n")
                .contains("expiresMin=" + renewed.expiresAt().toEpochMilli() + "\n");
    }
}
