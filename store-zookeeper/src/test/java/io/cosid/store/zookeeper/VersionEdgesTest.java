package io.cosid.store.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosid.store.Namespace;
import io.cosid.store.Range;
import io.cosid.store.RangeState;
import io.cosid.store.SlotLease;
import io.cosid.store.SlotView;
import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.zookeeper.harness.InProcessServer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every write path at the data versions where ints wrap or carry meaning: ZooKeeper's version is an
 * int that reaches {@code Integer.MAX_VALUE}, wraps to {@code MIN_VALUE}, passes -2 and -1 (the
 * "any version" value a compare-and-set must never send) and 0 again. An in-process server's data
 * tree puts a node there at once. Each path must still land exactly one write with the right data,
 * whether the store had the node cached at an older version or reads it fresh.
 */
@DisplayName("Writes at data versions MAX, MIN, -2, -1 and 0")
class VersionEdgesTest {

    private static InProcessServer server;
    private final List<Store> stores = new ArrayList<>();
    private String root;

    @BeforeAll
    static void startServer() {
        server = InProcessServer.start();
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @AfterEach
    void closeStores() {
        stores.forEach(Store::close);
    }

    private Store open() {
        Store store =
                ZooKeeperStores.open(
                        StoreConfig.of("versions", "zookeeper")
                                .withTimeout(Duration.ofSeconds(10))
                                .withOption("connectString", server.connectString())
                                .withOption("root", root));
        stores.add(store);
        return store;
    }

    private void begin(int version) {
        root = "/v" + Integer.toUnsignedString(version) + "-" + System.nanoTime();
    }

    @ParameterizedTest(name = "version {0}")
    @ValueSource(ints = {Integer.MAX_VALUE, Integer.MIN_VALUE, -2, -1, 0})
    @DisplayName(
            "range acquire, advance and seal, from a cached older version and from a fresh read")
    void ranges(int version) {
        begin(version);
        Store cached = open();
        cached.ranges().acquire("k", 10);
        cached.ranges().acquire("hot", 10);
        server.setVersion(root + "/range/k", version);
        server.setVersion(root + "/range/hot", version);

        assertThat(cached.ranges().acquire("k", 5)).isEqualTo(new Range("k", 10, 15));
        assertThat(open().ranges().acquire("hot", 5)).isEqualTo(new Range("hot", 10, 15));

        server.setVersion(root + "/range/k", version);
        assertThat(open().ranges().advance("k", 100)).isEqualTo(100);
        server.setVersion(root + "/range/k", version);
        assertThat(cached.ranges().advance("k", 200)).isEqualTo(200);
        server.setVersion(root + "/range/k", version);
        assertThat(open().ranges().seal("k")).isEqualTo(200);
        assertThat(cached.ranges().peek("k")).contains(new RangeState(200, true));
    }

    @ParameterizedTest(name = "version {0}")
    @ValueSource(ints = {Integer.MAX_VALUE, Integer.MIN_VALUE, -2, -1, 0})
    @DisplayName(
            "slot acquire of a free slot, renew, release and advance; owner index and namespace"
                    + " too")
    void slots(int version) {
        begin(version);
        Store store = open();
        store.slots().define("ns", 2, Duration.ofSeconds(1));
        SlotLease first = store.slots().acquire("ns", "a", Duration.ofMinutes(5));
        store.slots().release(first, first.floor());
        String slot = root + "/slot/ns/" + first.slot();

        server.setVersion(slot, version);
        server.setVersion(root + "/owner/ns/a", version);
        SlotLease again = open().slots().acquire("ns", "a", Duration.ofMinutes(5));
        assertThat(again.slot())
                .as("a free slot at this version is taken, not created again")
                .isEqualTo(first.slot());
        assertThat(again.fence()).isEqualTo(first.fence() + 1);

        server.setVersion(slot, version);
        SlotLease renewed = open().slots().renew(again);
        assertThat(renewed.fence()).isEqualTo(again.fence());
        server.setVersion(slot, version);
        assertThat(store.slots().renew(renewed).fence()).isEqualTo(again.fence());
        server.setVersion(slot, version);
        Instant end = store.slots().release(renewed, renewed.floor());
        assertThat(end).isEqualTo(renewed.floor());

        server.setVersion(slot, version);
        SlotView advanced =
                open().slots()
                        .advance("ns", first.slot(), 50, Instant.parse("2030-01-01T00:00:00Z"));
        assertThat(advanced.fence()).isEqualTo(50);

        server.setVersion(root + "/slot/ns", version);
        Namespace raised = open().slots().define("ns", 4, Duration.ofSeconds(1));
        assertThat(raised.limit()).isEqualTo(4);
        assertThat(store.slots().acquire("ns", "b", Duration.ofMinutes(5), first.slot()).fence())
                .isEqualTo(51);
    }
}
