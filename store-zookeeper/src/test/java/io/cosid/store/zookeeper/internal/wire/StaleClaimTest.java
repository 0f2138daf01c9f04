package io.cosid.store.zookeeper.internal.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cosid.store.SlotLease;
import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.StoreCorruptedException;
import io.cosid.store.zookeeper.ZooKeeperStores;
import io.cosid.store.zookeeper.harness.InProcessServer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A claim node left for a node's current state at version -1 (a restore can leave one; a crash
 * cannot, since claim and write are one multi) would make every write fail on it. Each write path
 * refuses it at once, naming the claim node and the repair, and leaves the node as it is; a timeout
 * naming nothing was the old answer.
 */
@DisplayName("A claim node left for the current state at the version wrap")
class StaleClaimTest {

    private static InProcessServer server;
    private static CuratorFramework admin;
    private final List<Store> stores = new ArrayList<>();
    private String root;
    private NodePaths paths;

    @BeforeAll
    static void start() throws InterruptedException {
        server = InProcessServer.start();
        admin = CuratorFrameworkFactory.newClient(server.connectString(), new RetryOneTime(100));
        admin.start();
        assertThat(admin.blockUntilConnected(20, TimeUnit.SECONDS)).isTrue();
    }

    @AfterAll
    static void stop() {
        admin.close();
        server.close();
    }

    @BeforeEach
    void newRoot() {
        root = "/claims-" + System.nanoTime();
        paths = new NodePaths(root);
    }

    @AfterEach
    void closeStores() {
        stores.forEach(Store::close);
    }

    private Store open() {
        Store store =
                ZooKeeperStores.open(
                        StoreConfig.of("claims", "zookeeper")
                                .withTimeout(Duration.ofSeconds(5))
                                .withOption("connectString", server.connectString())
                                .withOption("root", root));
        stores.add(store);
        return store;
    }

    /**
     * Puts the node at version -1 and leaves the claim for its current data, as a restore could.
     */
    private String leaveClaim(String path) throws Exception {
        server.setVersion(path, -1);
        String claim = paths.wrapClaim(path, admin.getData().forPath(path));
        admin.create().creatingParentsIfNeeded().forPath(claim);
        return claim;
    }

    private String state(String path) throws Exception {
        Stat stat = new Stat();
        byte[] data = admin.getData().storingStatIn(stat).forPath(path);
        return new String(data, StandardCharsets.UTF_8)
                + " v"
                + stat.getVersion()
                + " m"
                + stat.getMzxid();
    }

    @Test
    @DisplayName(
            "range acquire is refused at once, naming the claim node, and the node is left as it"
                    + " is")
    void range() throws Exception {
        open().ranges().acquire("k", 10);
        String claim = leaveClaim(paths.range("k"));
        String before = state(paths.range("k"));
        long started = System.nanoTime();
        assertThatThrownBy(() -> open().ranges().acquire("k", 5))
                .isInstanceOf(StoreCorruptedException.class)
                .hasMessageContaining(claim)
                .hasMessageContaining("range key 'k'")
                .hasMessageContaining("delete");
        assertThat(Duration.ofNanos(System.nanoTime() - started))
                .as("refused, not timed out")
                .isLessThan(Duration.ofSeconds(5));
        assertThat(state(paths.range("k"))).isEqualTo(before);
    }

    @Test
    @DisplayName("renew, release and acquire of a slot are refused, naming the claim node")
    void slot() throws Exception {
        Store store = open();
        store.slots().define("ns", 1, Duration.ofSeconds(1));
        SlotLease lease =
                store.slots().renew(store.slots().acquire("ns", "a", Duration.ofMinutes(5)));
        String claim = leaveClaim(paths.slot("ns", 0));
        String before = state(paths.slot("ns", 0));
        assertThatThrownBy(() -> store.slots().renew(lease))
                .isInstanceOf(StoreCorruptedException.class)
                .hasMessageContaining(claim)
                .hasMessageContaining("slot 0");
        assertThatThrownBy(() -> store.slots().release(lease))
                .isInstanceOf(StoreCorruptedException.class)
                .hasMessageContaining(claim);
        assertThat(state(paths.slot("ns", 0))).isEqualTo(before);
    }

    @Test
    @DisplayName(
            "an acquire over a free slot or an owner index at the wrap is refused, naming the claim"
                    + " node")
    void acquire() throws Exception {
        Store store = open();
        store.slots().define("ns", 1, Duration.ofSeconds(1));
        SlotLease lease = store.slots().acquire("ns", "a", Duration.ofMinutes(5));
        store.slots().release(lease, lease.floor());
        String slotClaim = leaveClaim(paths.slot("ns", 0));
        assertThatThrownBy(() -> open().slots().acquire("ns", "b", Duration.ofMinutes(5)))
                .isInstanceOf(StoreCorruptedException.class)
                .hasMessageContaining(slotClaim);
        admin.delete().forPath(slotClaim);
        String indexClaim = leaveClaim(paths.owner("ns", "a"));
        assertThatThrownBy(() -> open().slots().acquire("ns", "a", Duration.ofMinutes(5)))
                .isInstanceOf(StoreCorruptedException.class)
                .hasMessageContaining(indexClaim);
    }
}
