package io.cosid.store.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cosid.store.Namespace;
import io.cosid.store.NamespaceSnapshot;
import io.cosid.store.Range;
import io.cosid.store.RangeState;
import io.cosid.store.SlotLease;
import io.cosid.store.SlotView;
import io.cosid.store.Store;
import io.cosid.store.Stores;
import io.cosid.store.jdbc.harness.PostgresExtension;
import io.cosid.store.zookeeper.harness.ZooKeeperServerExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * migrate between two ZooKeeper roots and between ZooKeeper and in-memory, through the real
 * command.
 */
@DisplayName("cosid-store migrate")
class MigrateCommandTest {

    @RegisterExtension
    static final ZooKeeperServerExtension SERVER = ZooKeeperServerExtension.primary();

    @RegisterExtension static final PostgresExtension POSTGRES = PostgresExtension.newest();

    @TempDir Path dir;
    private final String id = UUID.randomUUID().toString().substring(0, 8);
    private Path config;
    private Store source;
    private final List<Range> sourceRanges = new ArrayList<>();
    private final List<SlotLease> sourceLeases = new ArrayList<>();

    @BeforeEach
    void setUp() throws Exception {
        config = dir.resolve("stores.yaml");
        Files.writeString(
                config,
                "cosid:\n  stores:\n"
                        + zk("old", "/old-" + id)
                        + zk("new", "/new-" + id)
                        + "    pg:\n"
                        + "      type: jdbc\n"
                        + "      options:\n"
                        + "        url: "
                        + POSTGRES.jdbcUrl()
                        + "\n        schema: create\n"
                        + "        tablePrefix: m"
                        + id.replace("-", "")
                        + "_\n"
                        + "    mem:\n"
                        + "      type: in-memory\n"
                        + "      options:\n"
                        + "        backend: migrate-"
                        + id
                        + "\n");
        source = open("old");
        for (int i = 0; i < 3; i++) {
            sourceRanges.add(source.ranges().acquire("orders", 100));
        }
        source.ranges().advance("invoices", 5000);
        source.slots().define("workers", 4, Duration.ofMillis(500));
        for (int term = 0; term < 3; term++) {
            SlotLease lease =
                    source.slots().acquire("workers", "host-" + term, Duration.ofMinutes(1));
            sourceLeases.add(lease);
            source.slots().release(lease);
        }
        SlotLease expiring = source.slots().acquire("workers", "host-x", Duration.ofMillis(300), 1);
        sourceLeases.add(expiring);
        await("the last lease to expire")
                .atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> source.slots().inspect("workers").held().isEmpty());
    }

    @AfterEach
    void tearDown() {
        source.close();
    }

    private static String zk(String name, String root) {
        return "    "
                + name
                + ":\n      type: zookeeper\n      options:\n        connectString: "
                + SERVER.server().connectString()
                + "\n        root: "
                + root
                + "\n";
    }

    /** The same store the command opens: from the same YAML, through the library. */
    private Store open(String name) {
        return Stores.open(StoreSelection.named(ConfigFiles.read(config), name, "--store"));
    }

    private Cli.Result migrate(String to, String... more) {
        List<String> args =
                new ArrayList<>(
                        List.of(
                                "migrate",
                                "--config",
                                config.toString(),
                                "--from",
                                "old",
                                "--to",
                                to));
        args.addAll(List.of(more));
        return Cli.run(args.toArray(String[]::new));
    }

    /** Everything the target shows: range states and every slot view. */
    private static Object state(Store store) {
        List<Object> all = new ArrayList<>();
        all.add(store.ranges().list());
        for (Namespace ns : store.slots().namespaces()) {
            all.add(ns);
            all.add(store.slots().inspect(ns.name()).slots());
        }
        return all;
    }

    @Test
    @DisplayName("a dry run reports and writes nothing")
    void dryRun() {
        Cli.Result r = migrate("new", "--all", "--dry-run");
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.out())
                .contains("dry run")
                .contains("would seal source at 300")
                .contains("would advance target to 300")
                .contains("would define workers");
        try (Store target = open("new")) {
            assertThat(target.ranges().list()).isEmpty();
            assertThat(target.slots().namespaces()).isEmpty();
        }
        assertThat(source.ranges().peek("orders")).contains(new RangeState(300, false));
    }

    @Test
    @DisplayName(
            "between two ZooKeeper roots: moves everything, a second run is a no-op, the target"
                    + " never reissues")
    void betweenRoots() {
        moveAndCheck("new");
    }

    @Test
    @DisplayName(
            "from ZooKeeper to PostgreSQL: moves everything, a second run is a no-op, the target"
                    + " never reissues")
    void zooKeeperToPostgres() {
        moveAndCheck("pg");
    }

    @Test
    @DisplayName(
            "from PostgreSQL back to ZooKeeper: a key sealed on PostgreSQL, advanced past it on"
                    + " ZooKeeper")
    void postgresBackToZooKeeper() {
        moveAndCheck("pg");
        long sealedAt;
        try (Store pg = open("pg")) {
            sealedAt = pg.ranges().acquire("orders", 1).end();
        }
        Cli.Result back =
                Cli.run(
                        "migrate",
                        "--config",
                        config.toString(),
                        "--from",
                        "pg",
                        "--to",
                        "new",
                        "--keys",
                        "orders");
        assertThat(back.code()).as(back.toString()).isZero();
        try (Store pg = open("pg");
                Store zk = open("new")) {
            assertThat(pg.ranges().peek("orders")).contains(new RangeState(sealedAt, true));
            assertThat(zk.ranges().acquire("orders", 1).start()).isGreaterThanOrEqualTo(sealedAt);
        }
    }

    @Test
    @DisplayName(
            "refuses an in-memory store, which would live only inside the command; nothing"
                    + " written")
    void refusesInMemory() {
        Cli.Result r = migrate("mem", "--all");
        assertThat(r.code()).as(r.toString()).isEqualTo(2);
        assertThat(r.err()).contains("in-memory").contains("nothing it changes would last");
        assertThat(source.ranges().peek("orders").orElseThrow().sealed())
                .as("nothing sealed on the source")
                .isFalse();
    }

    @Test
    @DisplayName("the migration works through the SPI alone: ZooKeeper to in-memory, in process")
    void throughTheSpi() {
        try (Store target = open("mem")) {
            List<String> keys = List.copyOf(source.ranges().list().keySet());
            List<String> namespaces = List.of("workers");
            Migration.Report first = Migration.run(source, target, keys, namespaces, false);
            assertThat(first.problems()).isEmpty();
            assertThat(first.changes()).isPositive();
            assertThat(Migration.run(source, target, keys, namespaces, false).changes())
                    .as("a second run changes nothing")
                    .isZero();
            Range next = target.ranges().acquire("orders", 100);
            assertThat(sourceRanges).allSatisfy(r -> assertThat(r.overlaps(next)).isFalse());
        }
    }

    @Test
    @DisplayName("--dry-run shows the plan and what blocks it, and writes nothing")
    void dryRunShowsBlockers() {
        SlotLease held = source.slots().acquire("workers", "still-running", Duration.ofMinutes(5));
        Cli.Result refused = migrate("new", "--all");
        assertThat(refused.code()).as(refused.toString()).isEqualTo(3);
        Cli.Result plan = migrate("new", "--all", "--dry-run");
        assertThat(plan.code()).as(plan.toString()).isZero();
        assertThat(plan.out())
                .contains("blocked: the migration would be refused")
                .contains("held by 'still-running'")
                .contains("would ");
        assertThat(source.ranges().peek("orders").orElseThrow().sealed()).isFalse();
        source.slots().release(held);
    }

    private void moveAndCheck(String to) {
        Cli.Result first = migrate(to, "--all");
        assertThat(first.code()).as(first.toString()).isZero();
        assertThat(first.out()).contains("change(s) made, verified");
        assertThat(source.ranges().peek("orders")).contains(new RangeState(300, true));

        try (Store target = open(to)) {
            Object before = state(target);
            Cli.Result second = migrate(to, "--all", "--json");
            assertThat(second.code()).as(second.toString()).isZero();
            assertThat(second.out()).contains("\"changes\":0").contains("\"verified\":true");
            assertThat(state(target)).as("a second run changes nothing").isEqualTo(before);

            // a client of the target never gets a value or window the source already gave
            Range next = target.ranges().acquire("orders", 100);
            assertThat(sourceRanges).allSatisfy(r -> assertThat(r.overlaps(next)).isFalse());
            assertThat(target.ranges().acquire("invoices", 1).start()).isGreaterThanOrEqualTo(5000);
            NamespaceSnapshot migrated = target.slots().inspect("workers");
            assertThat(migrated.namespace())
                    .isEqualTo(new Namespace("workers", 4, Duration.ofMillis(500)));
            for (int slot = 0; slot < 4; slot++) {
                SlotLease lease =
                        target.slots()
                                .acquire(
                                        "workers", "new-host-" + slot, Duration.ofMinutes(1), slot);
                int s = lease.slot();
                for (SlotLease old : sourceLeases) {
                    if (old.slot() == s) {
                        assertThat(lease.fence()).isGreaterThan(old.fence());
                        assertThat(lease.floor()).isAfterOrEqualTo(old.floor());
                    }
                }
                SlotView sourceView =
                        source.slots().inspect("workers").slots().stream()
                                .filter(v -> v.slot() == s)
                                .findFirst()
                                .orElse(null);
                if (sourceView != null) {
                    assertThat(lease.floor()).isAfterOrEqualTo(sourceView.nextFloor());
                    assertThat(lease.fence()).isGreaterThan(sourceView.fence());
                }
            }
        }
    }

    @Test
    @DisplayName("refuses while the source has unexpired leases, listing them, and writes nothing")
    void refusesHeldLeases() {
        source.slots().acquire("workers", "busy-host", Duration.ofMinutes(5));
        Cli.Result r = migrate("new", "--all");
        assertThat(r.code()).isEqualTo(3);
        assertThat(r.err())
                .contains("unexpired leases")
                .contains("held by 'busy-host'")
                .contains("Nothing was written");
        assertThat(source.ranges().peek("orders")).contains(new RangeState(300, false));
        try (Store target = open("new")) {
            assertThat(target.ranges().list()).isEmpty();
        }
    }

    @Test
    @DisplayName("moves only the keys named, and says what it needs")
    void selectedKeys() {
        Cli.Result r = migrate("new", "--keys", "invoices");
        assertThat(r.code()).as(r.toString()).isZero();
        try (Store target = open("new")) {
            assertThat(target.ranges().list()).containsOnlyKeys("invoices");
        }
        assertThat(migrate("new").err()).contains("--keys K1,K2, --namespaces NS1,NS2, or --all");
        assertThat(
                        Cli.run(
                                        "migrate",
                                        "--config",
                                        config.toString(),
                                        "--from",
                                        "old",
                                        "--to",
                                        "old",
                                        "--all")
                                .err())
                .contains("name the same store");
    }
}
