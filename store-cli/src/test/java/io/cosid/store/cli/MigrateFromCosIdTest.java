package io.cosid.store.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosid.store.Namespace;
import io.cosid.store.NamespaceSnapshot;
import io.cosid.store.RangeState;
import io.cosid.store.SlotView;
import io.cosid.store.Store;
import io.cosid.store.Stores;
import io.cosid.store.cosid.LeaseBoundSnowflakeId;
import io.cosid.store.cosid.StoreIdSegmentDistributor;
import io.cosid.store.cosid.StoreMachineIdDistributor;
import io.cosid.store.zookeeper.harness.ZooKeeperServerExtension;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import me.ahoo.cosid.CosId;
import me.ahoo.cosid.machine.InstanceId;
import me.ahoo.cosid.machine.MachineState;
import me.ahoo.cosid.snowflake.MillisecondSnowflakeId;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.atomic.DistributedAtomicInteger;
import org.apache.curator.framework.recipes.atomic.DistributedAtomicLong;
import org.apache.curator.framework.recipes.atomic.PromotedToLock;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code migrate --from-cosid-zookeeper}, through the real command, from nodes written the way
 * CosId's own ZooKeeper backend writes them: a real Curator {@code DistributedAtomicLong} for a
 * segment counter, a {@code DistributedAtomicInteger} and machine-state nodes for machine ids.
 */
@DisplayName("cosid-store migrate --from-cosid-zookeeper")
class MigrateFromCosIdTest {

    @RegisterExtension
    static final ZooKeeperServerExtension SERVER = ZooKeeperServerExtension.primary();

    private static final String GUARD_DELAY = "200ms";

    @TempDir Path dir;
    private final String id = UUID.randomUUID().toString().substring(0, 8);
    private final String cosIdRoot = "/cosid-" + id;
    private Path config;
    private CuratorFramework curator;
    private Instant lastStamp;

    @BeforeEach
    void setUp() throws Exception {
        config = dir.resolve("stores.yaml");
        Files.writeString(
                config,
                "cosid:\n  stores:\n    new:\n      type: zookeeper\n      options:\n"
                        + "        connectString: "
                        + SERVER.server().connectString()
                        + "\n        root: /new-"
                        + id
                        + "\n");
        curator =
                CuratorFrameworkFactory.newClient(
                        SERVER.server().connectString(), new RetryOneTime(100));
        curator.start();
        DistributedAtomicLong counter =
                new DistributedAtomicLong(
                        curator, cosIdRoot + "/shop.order", new RetryOneTime(100));
        counter.initialize(1_000L);
        for (int i = 0; i < 3; i++) {
            assertThat(counter.add(500L).succeeded()).isTrue();
        }
        DistributedAtomicInteger machines =
                new DistributedAtomicInteger(
                        curator, cosIdRoot + "/orders/__counter", new RetryOneTime(100));
        for (int i = 0; i < 3; i++) {
            assertThat(machines.increment().succeeded()).isTrue();
        }
        lastStamp = Instant.now();
        state("/orders/__itc_idx/host-a:8080", 0, lastStamp.toEpochMilli());
        state("/orders/__itc_idx/host-b:8080", 1, lastStamp.minusSeconds(30).toEpochMilli());
        state("/orders/__revert/2", 2, lastStamp.minusSeconds(60).toEpochMilli());
    }

    private void state(String path, int machineId, long lastTimeStamp) throws Exception {
        curator.create()
                .creatingParentsIfNeeded()
                .forPath(
                        cosIdRoot + path,
                        (machineId + "|" + lastTimeStamp).getBytes(StandardCharsets.UTF_8));
    }

    @AfterEach
    void tearDown() {
        curator.close();
    }

    private Store target() {
        return Stores.open(StoreSelection.named(ConfigFiles.read(config), "new", "--store"));
    }

    private Cli.Result migrate(String... more) {
        List<String> args =
                new ArrayList<>(
                        List.of(
                                "migrate",
                                "--config",
                                config.toString(),
                                "--from-cosid-zookeeper",
                                SERVER.server().connectString(),
                                "--cosid-root",
                                cosIdRoot,
                                "--to",
                                "new",
                                "--tolerance",
                                "500ms",
                                "--cosid-guard-delay",
                                GUARD_DELAY));
        args.addAll(List.of(more));
        if (!args.contains("--machine-bit")) {
            args.addAll(List.of("--machine-bit", "4"));
        }
        return Cli.run(args.toArray(String[]::new));
    }

    @Test
    @DisplayName("refuses while CosId's nodes were written within the quiet period; writes nothing")
    void refusesWhileGuarding() {
        Cli.Result r = migrate("--all");

        assertThat(r.code()).as(r.toString()).isEqualTo(ExitCodes.REFUSED);
        assertThat(r.err())
                .contains("may still be guarding machine id 0")
                .contains("an instance may still draw segments from it")
                .contains("Nothing was written");
        try (Store target = target()) {
            assertThat(target.ranges().list()).isEmpty();
            assertThat(target.slots().namespaces()).isEmpty();
        }
    }

    @Test
    @DisplayName("a dry run shows the plan and writes nothing")
    void dryRun() {
        Cli.Result r = migrate("--all", "--quiet-for", "1ms", "--dry-run");

        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.out())
                .contains("dry run")
                .contains("would advance target to 2500")
                .contains("would define orders (limit 16, tolerance 500ms)")
                .contains("would raise next floor");
        try (Store target = target()) {
            assertThat(target.ranges().list()).isEmpty();
            assertThat(target.slots().namespaces()).isEmpty();
        }
    }

    @Test
    @DisplayName(
            "the counter continues above CosId's value through StoreIdSegmentDistributor;"
                    + " machine ids stamp past every timestamp CosId may have used; a rerun"
                    + " changes nothing")
    void migrates() {
        Instant before = Instant.now();
        Cli.Result r = migrate("--all", "--quiet-for", "1ms");
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.out()).contains("advanced target to 2500").contains("verified");

        try (Store target = target()) {
            StoreIdSegmentDistributor segments =
                    new StoreIdSegmentDistributor(target.ranges(), "shop", "order", 100);
            assertThat(segments.nextMaxId(100)).isEqualTo(2_600);

            Namespace orders = target.slots().namespace("orders").orElseThrow();
            assertThat(orders.limit()).isEqualTo(16);
            assertThat(orders.tolerance()).isEqualTo(Duration.ofMillis(500));
            NamespaceSnapshot slots = target.slots().inspect("orders");
            assertThat(slots.slots()).extracting(SlotView::slot).containsExactly(0, 1, 2);
            Instant needed = lastStamp.plus(Duration.ofMillis(200 + 500));
            for (SlotView v : slots.slots()) {
                assertThat(v.nextFloor()).isAfterOrEqualTo(needed);
                assertThat(v.nextFloor()).isAfterOrEqualTo(before.plusMillis(500));
            }

            Cli.Result again = migrate("--all", "--quiet-for", "1ms");
            assertThat(again.code()).as(again.toString()).isZero();
            assertThat(again.out()).contains("nothing to change: already migrated");
            assertThat(target.slots().inspect("orders").slots()).isEqualTo(slots.slots());

            StoreMachineIdDistributor machines =
                    new StoreMachineIdDistributor(target.slots(), Duration.ofMillis(500));
            InstanceId instance = InstanceId.of("host-a:8080", true);
            MachineState state = machines.distribute("orders", 4, instance, Duration.ofMinutes(1));
            long first =
                    new LeaseBoundSnowflakeId(
                                    new MillisecondSnowflakeId(
                                            CosId.COSID_EPOCH,
                                            MillisecondSnowflakeId.DEFAULT_TIMESTAMP_BIT,
                                            4,
                                            63 - MillisecondSnowflakeId.DEFAULT_TIMESTAMP_BIT - 4,
                                            state.getMachineId()),
                                    machines,
                                    "orders",
                                    instance)
                            .generate();
            long stamped =
                    (first >>> (63 - MillisecondSnowflakeId.DEFAULT_TIMESTAMP_BIT))
                            + CosId.COSID_EPOCH;
            assertThat(stamped).isGreaterThanOrEqualTo(needed.toEpochMilli());
        }
    }

    /**
     * A counter as CosId's ZooKeeper segment distributor writes it for {@code namespace} and {@code
     * name}: a {@code DistributedAtomicLong} at {@code {root}/{namespace}.{name}} promoted to a
     * lock at {@code {counter}-locker}, drawn to {@code drawnTo}.
     */
    private void cosIdCounter(String namespace, String name, long drawnTo) throws Exception {
        String path = cosIdRoot + "/" + namespace + "." + name;
        DistributedAtomicLong counter =
                new DistributedAtomicLong(
                        curator,
                        path,
                        new RetryOneTime(100),
                        PromotedToLock.builder()
                                .lockPath(path + "-locker")
                                .retryPolicy(new RetryOneTime(100))
                                .build());
        counter.initialize(0L);
        for (long drawn = 0; drawn < drawnTo; drawn += 100) {
            assertThat(counter.add(100L).succeeded()).isTrue();
        }
    }

    @Test
    @DisplayName(
            "a counter whose namespace has '/' (shop/eu.order below /shop) is found by --all and"
                    + " --keys, and StoreIdSegmentDistributor continues above it")
    void nestedCounter() throws Exception {
        cosIdCounter("shop/eu", "order", 500);
        // the promoted lock as Curator leaves it while an instance holds it
        curator.create()
                .creatingParentContainersIfNeeded()
                .withMode(CreateMode.EPHEMERAL)
                .forPath(cosIdRoot + "/shop/eu.order-locker/_c_1-lock-0000000001");

        Cli.Result byKey = migrate("--keys", "shop/eu.order", "--quiet-for", "1ms");
        assertThat(byKey.code()).as(byKey.toString()).isZero();
        assertThat(byKey.out()).contains("shop/eu.order").contains("advanced target to 500");
        Cli.Result all = migrate("--all", "--quiet-for", "1ms");
        assertThat(all.code()).as(all.toString()).isZero();
        assertThat(all.out()).contains("advanced target to 2500").contains("verified");

        try (Store target = target()) {
            assertThat(target.ranges().peek("shop/eu.order").orElseThrow().next()).isEqualTo(500);
            StoreIdSegmentDistributor segments =
                    new StoreIdSegmentDistributor(target.ranges(), "shop/eu", "order", 100);
            assertThat(segments.nextMaxId(100)).isEqualTo(600);
        }
    }

    @Test
    @DisplayName(
            "a node under CosId's root of no shape it knows refuses the migration, named,"
                    + " and nothing is written")
    void unknownNode() throws Exception {
        cosIdCounter("shop/eu", "order", 500);
        curator.create()
                .forPath(cosIdRoot + "/shop/notes", "hello".getBytes(StandardCharsets.UTF_8));
        curator.create().forPath(cosIdRoot + "/orders/extra", new byte[8]);

        Cli.Result r = migrate("--all", "--quiet-for", "1ms");

        assertThat(r.code()).as(r.toString()).isEqualTo(ExitCodes.REFUSED);
        assertThat(r.err())
                .contains(cosIdRoot + "/shop/notes holds 5 bytes, neither a CosId segment counter")
                .contains(cosIdRoot + "/orders/extra is not a node of CosId's machine-id layout")
                .contains("Nothing was written");
        try (Store target = target()) {
            assertThat(target.ranges().list()).isEmpty();
            assertThat(target.slots().namespaces()).isEmpty();
        }
    }

    @Test
    @DisplayName(
            "a machine-id namespace with '/' refuses the migration: a store namespace is one"
                    + " segment")
    void nestedMachineNamespace() throws Exception {
        DistributedAtomicInteger machines =
                new DistributedAtomicInteger(
                        curator, cosIdRoot + "/shop/eu/__counter", new RetryOneTime(100));
        assertThat(machines.increment().succeeded()).isTrue();

        Cli.Result r = migrate("--all", "--quiet-for", "1ms");

        assertThat(r.code()).as(r.toString()).isEqualTo(ExitCodes.REFUSED);
        assertThat(r.err())
                .contains("CosId's machine-id namespace 'shop/eu' at " + cosIdRoot + "/shop/eu")
                .contains("one segment");
        try (Store target = target()) {
            assertThat(target.ranges().list()).isEmpty();
        }
    }

    @Test
    @DisplayName("machine ids beyond --machine-bit are refused, naming the namespace")
    void machineBitTooSmall() {
        Cli.Result r = migrate("--all", "--quiet-for", "1ms", "--machine-bit", "1");

        assertThat(r.code()).as(r.toString()).isEqualTo(ExitCodes.REFUSED);
        assertThat(r.err()).contains("namespace orders has machine id 2, beyond --machine-bit 1");
    }

    @Test
    @DisplayName("a machine-state node that does not parse is reported, nothing written")
    void corruptState() throws Exception {
        curator.create()
                .forPath(
                        cosIdRoot + "/orders/__itc_idx/host-c:8080",
                        "garbage".getBytes(StandardCharsets.UTF_8));

        Cli.Result r = migrate("--all", "--quiet-for", "1ms");

        assertThat(r.code()).as(r.toString()).isNotZero();
        assertThat(r.err())
                .contains(cosIdRoot + "/orders/__itc_idx/host-c:8080 holds 'garbage'")
                .contains("refusing to guess");
        try (Store target = target()) {
            assertThat(target.ranges().list()).isEmpty();
        }
    }

    @Test
    @DisplayName("a counter or namespace asked for by name but absent is refused")
    void absentName() {
        Cli.Result r = migrate("--keys", "shop.invoice", "--quiet-for", "1ms");

        assertThat(r.code()).as(r.toString()).isEqualTo(ExitCodes.NOT_FOUND);
        assertThat(r.err()).contains("no CosId counter named shop.invoice");
    }

    @Test
    @DisplayName(
            "a target on CosId's own ensemble and root: the walk passes over the store's nodes,"
                    + " a second run changes nothing, an unknown key is absent (5) and a small"
                    + " --machine-bit is refused for itself")
    void targetUnderCosIdsRoot() throws Exception {
        Files.writeString(
                config,
                "cosid:\n  stores:\n    new:\n      type: zookeeper\n      options:\n"
                        + "        connectString: "
                        + SERVER.server().connectString().replace("127.0.0.1", "localhost")
                        + "\n        root: "
                        + cosIdRoot
                        + "\n");
        Cli.Result dry = migrate("--all", "--quiet-for", "1ms", "--dry-run");
        assertThat(dry.code()).as(dry.toString()).isZero();
        Cli.Result first = migrate("--all", "--quiet-for", "1ms");
        assertThat(first.code()).as(first.toString()).isZero();
        assertThat(first.out()).contains("advanced target to 2500").contains("verified");
        assertThat(curator.getChildren().forPath(cosIdRoot)).contains("range", "slot");

        Cli.Result again = migrate("--all", "--quiet-for", "1ms");
        assertThat(again.code()).as(again.toString()).isZero();
        assertThat(again.out()).contains("nothing to change: already migrated");

        Cli.Result absent = migrate("--keys", "shop.invoice", "--quiet-for", "1ms");
        assertThat(absent.code()).as(absent.toString()).isEqualTo(ExitCodes.NOT_FOUND);
        Cli.Result bits = migrate("--all", "--quiet-for", "1ms", "--machine-bit", "1");
        assertThat(bits.code()).as(bits.toString()).isEqualTo(ExitCodes.REFUSED);
        assertThat(bits.err())
                .contains("namespace orders has machine id 2, beyond --machine-bit 1");
        try (Store target = target()) {
            assertThat(target.ranges().peek("shop.order")).map(RangeState::next).contains(2_500L);
        }
    }

    @Test
    @DisplayName("--from and --from-cosid-zookeeper together are a usage error")
    void oneSource() {
        Cli.Result r = migrate("--all", "--from", "old");

        assertThat(r.code()).as(r.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err())
                .contains(
                        "--from STORE, --from-cosid-zookeeper CONNECT, --from-leaf JDBC_URL or"
                                + " --from-cosid-jdbc JDBC_URL (one of them)");
    }
}
