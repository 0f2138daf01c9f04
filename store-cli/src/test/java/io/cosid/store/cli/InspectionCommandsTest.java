package io.cosid.store.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cosid.store.SlotLease;
import io.cosid.store.SlotView;
import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.StoreCorruptedException;
import io.cosid.store.zookeeper.ZooKeeperStores;
import io.cosid.store.zookeeper.harness.ZooKeeperServerExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Inspection and operator commands against a real ZooKeeper: output matches the store's state. */
@DisplayName("cosid-store inspection")
class InspectionCommandsTest {

    @RegisterExtension
    static final ZooKeeperServerExtension SERVER = ZooKeeperServerExtension.primary();

    private final String root = "/cli-" + UUID.randomUUID().toString().substring(0, 8);
    private Store store;
    private SlotLease held;

    @BeforeEach
    void setUp() {
        store =
                ZooKeeperStores.open(
                        StoreConfig.of("setup", "zookeeper")
                                .withOption("connectString", SERVER.server().connectString())
                                .withOption("root", root));
        store.ranges().acquire("a", 10);
        store.ranges().advance("b", 5);
        store.ranges().seal("b");
        store.slots().define("ns", 4, Duration.ofSeconds(1));
        held = store.slots().acquire("ns", "host-1", Duration.ofMinutes(5));
        store.slots().release(store.slots().acquire("ns", "host-2", Duration.ofMinutes(5)));
    }

    @AfterEach
    void tearDown() {
        store.close();
    }

    private Cli.Result cli(String... args) {
        String[] all = new String[args.length + 4];
        System.arraycopy(args, 0, all, 0, args.length);
        all[args.length] = "--connect";
        all[args.length + 1] = SERVER.server().connectString();
        all[args.length + 2] = "--root";
        all[args.length + 3] = root;
        return Cli.run(all);
    }

    @Test
    @DisplayName("ranges list shows every key, as a table and as JSON")
    void rangesList() {
        Cli.Result table = cli("ranges", "list");
        assertThat(table.code()).as(table.toString()).isZero();
        assertThat(table.out())
                .containsPattern("KEY +NEXT +SEALED")
                .containsPattern("\\na +10 +no\\n")
                .containsPattern("\\nb +5 +sealed\\n");
        assertThat(cli("ranges", "list", "--json").out().trim())
                .isEqualTo(
                        "{\"schemaVersion\":1,\"ranges\":["
                                + "{\"key\":\"a\",\"used\":true,\"next\":10,\"sealed\":false},"
                                + "{\"key\":\"b\",\"used\":true,\"next\":5,\"sealed\":true}]}");
    }

    @Test
    @DisplayName(
            "ranges show names one key; an unused key is 'not found' (exit 5), with the same JSON"
                    + " shape")
    void rangesShow() {
        assertThat(cli("ranges", "show", "a").out()).isEqualTo("a: next 10\n");
        assertThat(cli("ranges", "show", "b").out()).isEqualTo("b: next 5, sealed\n");
        Cli.Result unused = cli("ranges", "show", "nope");
        assertThat(unused.code()).isEqualTo(5);
        assertThat(unused.err()).contains("range key nope is unused");
        assertThat(cli("ranges", "show", "a", "--json").out().trim())
                .isEqualTo(
                        "{\"schemaVersion\":1,\"key\":\"a\",\"used\":true,\"next\":10,"
                                + "\"sealed\":false}");
        Cli.Result unusedJson = cli("ranges", "show", "nope", "--json");
        assertThat(unusedJson.out().trim())
                .isEqualTo(
                        "{\"schemaVersion\":1,\"key\":\"nope\",\"used\":false,\"next\":0,"
                                + "\"sealed\":false}");
        assertThat(unusedJson.err().trim())
                .startsWith("{\"schemaVersion\":1,\"error\":{\"exitCode\":5,");
    }

    @Test
    @DisplayName("namespaces shows limit, tolerance and held slots")
    void namespaces() {
        assertThat(cli("namespaces", "--json").out().trim())
                .isEqualTo(
                        "{\"schemaVersion\":1,\"namespaces\":[{\"name\":\"ns\",\"limit\":4,"
                                + "\"toleranceMillis\":1000,\"held\":1}]}");
        assertThat(cli("namespaces").out()).containsPattern("\\nns +4 +1s +1\\n");
    }

    @Test
    @DisplayName(
            "slots list shows holder, fence, incarnation, window and timing by the store's clock")
    void slotsList() {
        Cli.Result table = cli("slots", "list", "ns");
        assertThat(table.code()).as(table.toString()).isZero();
        assertThat(table.out())
                .contains("namespace ns: limit 4, tolerance 1s, 1 held; store now ")
                .containsPattern(
                        "\\n0 +held +host-1 +1 +1 +1970-01-01T00:00:00Z +"
                                + held.ceiling()
                                + " +expires in ")
                .containsPattern("\\n1 +released +host-2 +1 +1 .* free since .* ago ");
        String json = cli("slots", "list", "ns", "--json").out();
        assertThat(json)
                .contains(
                        "\"slot\":0,\"state\":\"held\",\"holder\":\"host-1\","
                                + "\"lastOwner\":\"host-1\",\"fence\":1,\"incarnation\":1,"
                                + "\"floor\":\"1970-01-01T00:00:00Z\",\"expiresAt\":\""
                                + held.expiresAt()
                                + "\",\"ceiling\":\""
                                + held.ceiling()
                                + "\",\"nextFloor\":\""
                                + held.ceiling()
                                + "\",\"ttlMillis\":300000,");
        assertThat(json)
                .contains(
                        "\"slot\":1,\"state\":\"released\",\"holder\":null,"
                                + "\"lastOwner\":\"host-2\"")
                .contains("\"expiresInMillis\":null,\"freeSince\":\"");
    }

    @Test
    @DisplayName("slots show prints one slot, and refuses a slot outside the namespace")
    void slotsShow() {
        assertThat(cli("slots", "show", "ns", "1").out())
                .contains("state            released")
                .contains("timing           free since");
        assertThat(cli("slots", "show", "ns", "3").out()).contains("slot 3 of ns: never used");
        String used = cli("slots", "show", "ns", "1", "--json").out();
        String unused = cli("slots", "show", "ns", "3", "--json").out();
        assertThat(fieldNames(unused))
                .as("one shape for used and unused slots")
                .isEqualTo(fieldNames(used));
        assertThat(cli("slots", "show", "ns", "1").out())
                .as("text and JSON agree: ttlMillis in milliseconds")
                .containsPattern("ttlMillis +300000\n");
        Cli.Result undefined = cli("slots", "list", "nope");
        assertThat(undefined.code()).as("an undefined namespace is 'not found'").isEqualTo(5);
        assertThat(undefined.err())
                .contains("cosid-store slots define")
                .doesNotContain("SlotLeaseStore");
        assertThat(
                        cli(
                                        "slots",
                                        "advance",
                                        "ns",
                                        "2",
                                        "--fence",
                                        "8",
                                        "--floor",
                                        "2026-12-03T10:15:00Z",
                                        "--yes")
                                .code())
                .isZero();
        assertThat(cli("slots", "show", "ns", "2").out())
                .as("a slot advanced but never held says so, not 'unused'")
                .contains("state            advanced")
                .contains("never held; its next window starts at 2026-12-03T10:15:00Z")
                .doesNotContain("unused");
        Cli.Result outside = cli("slots", "show", "ns", "9");
        assertThat(outside.code()).isEqualTo(2);
        assertThat(outside.err())
                .contains("slot 9 is outside namespace 'ns', whose slots are 0..3");
    }

    private static String fieldNames(String json) {
        return json.replaceAll(":(\"[^\"]*\"|[^,{}\\[\\]]*)", ":");
    }

    @Test
    @DisplayName(
            "a typo changes nothing: sealing an unused key, advancing near the end need an extra"
                    + " flag; advancing below says unchanged")
    void typos() {
        Cli.Result unusedSeal = cli("ranges", "seal", "orderz", "--yes");
        assertThat(unusedSeal.code()).isEqualTo(3);
        assertThat(unusedSeal.err()).contains("never used").contains("--unused-key");
        assertThat(store.ranges().peek("orderz")).isEmpty();
        assertThat(cli("ranges", "seal", "orderz", "--yes", "--unused-key").out())
                .isEqualTo("orderz: sealed at 0\n");

        Cli.Result nearEnd =
                cli("ranges", "advance", "a", Long.toString(Long.MAX_VALUE - 10), "--yes");
        assertThat(nearEnd.code()).isEqualTo(3);
        assertThat(nearEnd.err()).contains("within 2^32").contains("--near-end");
        assertThat(store.ranges().peek("a").orElseThrow().next()).isEqualTo(10);

        Cli.Result unusedAdvance = cli("ranges", "advance", "ordrs", "100", "--yes");
        assertThat(unusedAdvance.code()).isEqualTo(3);
        assertThat(unusedAdvance.err())
                .contains("range key ordrs was never used")
                .contains("nothing was written")
                .contains("--unused-key");
        assertThat(store.ranges().peek("ordrs")).isEmpty();
        assertThat(cli("ranges", "advance", "ordrs", "100", "--yes", "--unused-key").out())
                .isEqualTo("ordrs: next 100\n");

        assertThat(cli("ranges", "advance", "a", "3", "--yes").out())
                .isEqualTo("a: next 10 (unchanged: already at or above 3; advance never lowers)\n");
        assertThat(cli("ranges", "advance", "a", "-1", "--yes").code()).isEqualTo(2);
    }

    @Test
    @DisplayName("purge of a root that holds nothing is refused as not found")
    void purgeNothing() {
        String[] args = {
            "purge",
            "--confirm-all-instances-stopped",
            "--connect",
            SERVER.server().connectString(),
            "--root",
            root + "-typo"
        };
        Cli.Result r = Cli.run(args);
        assertThat(r.code()).isEqualTo(5);
        assertThat(r.err())
                .contains(
                        "nothing to purge: root "
                                + root
                                + "-typo on "
                                + SERVER.server().connectString())
                .contains("mistyped --root")
                .doesNotContain("store cli");
    }

    @Test
    @DisplayName(
            "connection errors are one line in the user's terms, with exit codes by class;"
                    + " a malformed connect string fails at once")
    void connectionErrors() {
        Cli.Result malformed = Cli.run("ranges", "list", "--connect", "zk-1:21x81");
        assertThat(malformed.code()).isEqualTo(2);
        assertThat(malformed.err())
                .isEqualTo(
                        "cosid-store: error: --connect 'zk-1:21x81' is not"
                                + " host:port[,host:port...][/chroot]: 'zk-1:21x81' has port"
                                + " '21x81'; a port is a number from 1 to 65535\n");
        Cli.Result unknown = Cli.run("ranges", "list", "--connect", "no-such-host.invalid:2181");
        assertThat(unknown.code()).isEqualTo(1);
        assertThat(unknown.err())
                .contains("unknown host no-such-host.invalid")
                .doesNotContain("\tat ")
                .hasLineCount(1);
        Cli.Result json =
                Cli.run("ranges", "list", "--connect", "no-such-host.invalid:2181", "--json");
        assertThat(json.err().trim())
                .startsWith("{\"schemaVersion\":1,\"error\":{\"exitCode\":1,\"message\":")
                .contains("unknown host no-such-host.invalid");
        assertThat(
                        Cli.run("ranges", "list", "--connect", "127.0.0.1:1", "--timeout", "1500ms")
                                .err())
                .doesNotContain("PT")
                .hasLineCount(1);
    }

    @Test
    @DisplayName("seal and advance need --yes, and change the store only with it")
    void operatorActions() {
        Cli.Result refused = cli("ranges", "seal", "a");
        assertThat(refused.code()).isEqualTo(3);
        assertThat(refused.err()).contains("add --yes");
        assertThat(store.ranges().peek("a").orElseThrow().sealed()).isFalse();
        assertThat(cli("ranges", "advance", "a", "100").code()).isEqualTo(3);
        assertThat(cli("ranges", "advance", "a", "100", "--yes").out()).isEqualTo("a: next 100\n");
        assertThat(cli("ranges", "seal", "a", "--yes").out()).isEqualTo("a: sealed at 100\n");
        assertThat(store.ranges().peek("a").orElseThrow().sealed()).isTrue();
    }

    @Test
    @DisplayName("seal and advance print one JSON document with --json")
    void operatorActionsAsJson() {
        assertThat(cli("ranges", "advance", "a", "100", "--yes", "--json").out())
                .contains("\"key\":\"a\"")
                .contains("\"next\":100")
                .contains("\"changed\":true")
                .startsWith("{\"schemaVersion\":1");
        assertThat(cli("ranges", "advance", "a", "50", "--yes", "--json").out())
                .contains("\"next\":100")
                .contains("\"changed\":false");
        assertThat(cli("ranges", "seal", "a", "--yes", "--json").out())
                .contains("\"sealed\":true")
                .contains("\"next\":100")
                .contains("\"changed\":true");
    }

    @Test
    @DisplayName("slots advance (needs --yes) and slots define repair what a store refuses")
    void slotRepairs() throws Exception {
        SlotView before =
                store.slots().inspect("ns").slots().stream()
                        .filter(v -> v.slot() == 1)
                        .findFirst()
                        .orElseThrow();
        assertThat(
                        cli(
                                        "slots",
                                        "advance",
                                        "ns",
                                        "1",
                                        "--fence",
                                        "40",
                                        "--floor",
                                        "2030-01-01T00:00:00Z")
                                .code())
                .isEqualTo(3);
        assertThat(
                        cli(
                                        "slots",
                                        "advance",
                                        "ns",
                                        "1",
                                        "--fence",
                                        "40",
                                        "--floor",
                                        "2030-01-01T00:00:00Z",
                                        "--yes")
                                .out())
                .isEqualTo("ns slot 1: fence 40, next floor 2030-01-01T00:00:00Z\n");
        assertThat(before.fence()).isLessThan(40);
        SlotLease next = store.slots().acquire("ns", "host-3", Duration.ofMinutes(5), 1);
        assertThat(next.fence()).isEqualTo(41);

        try (CuratorFramework admin =
                CuratorFrameworkFactory.newClient(
                        SERVER.server().connectString(), new RetryOneTime(100))) {
            admin.start();
            admin.delete().forPath(root + "/slot/ns/.clock");
        }
        assertThatThrownBy(() -> store.slots().acquire("ns", "host-4", Duration.ofMinutes(5)))
                .isInstanceOf(StoreCorruptedException.class);
        assertThat(cli("slots", "define", "ns", "--limit", "4", "--tolerance", "1s").out())
                .isEqualTo("ns: limit 4, tolerance 1s\n");
        assertThat(store.slots().acquire("ns", "host-4", Duration.ofMinutes(5)).slot())
                .isNotNegative();
    }

    @Test
    @DisplayName(
            "a store's refusal or error is one line on stderr without a stack trace, unless"
                    + " --verbose")
    void errors() {
        Cli.Result plain = cli("ranges", "advance", "b", "100", "--yes");
        assertThat(plain.code()).as("a refusal of the store's, not a failure").isEqualTo(3);
        assertThat(plain.err())
                .isEqualTo(
                        "cosid-store: refused: range key 'b' is sealed at 5; it hands out no more"
                                + " ranges\n");
        Cli.Result verbose = cli("ranges", "advance", "b", "100", "--yes", "--verbose");
        assertThat(verbose.err()).contains("RangeSealedException").contains("\tat ");
        assertThat(cli("ranges", "list", "--bogus").code()).isEqualTo(2);
        assertThat(Cli.run("ranges").err()).contains("name a subcommand");
    }

    @Test
    @DisplayName("reads the cosid.stores YAML of applications; several stores need --store")
    void yamlConfig(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("stores.yaml");
        Files.writeString(
                file,
                "cosid:\n"
                        + "  stores:\n"
                        + "    one:\n"
                        + "      type: zookeeper\n"
                        + "      timeout: 2s\n"
                        + "      options:\n"
                        + "        connectString: "
                        + SERVER.server().connectString()
                        + "\n        root: "
                        + root
                        + "\n"
                        + "    two:\n      type: in-memory\n");
        Cli.Result ambiguous = Cli.run("ranges", "list", "--config", file.toString());
        assertThat(ambiguous.code()).isEqualTo(2);
        assertThat(ambiguous.err()).contains("[one, two]").contains("--store");
        assertThat(
                        Cli.run(
                                        "ranges",
                                        "show",
                                        "a",
                                        "--config",
                                        file.toString(),
                                        "--store",
                                        "one")
                                .out())
                .isEqualTo("a: next 10\n");
        Files.writeString(file, "cosid: [not, a, map");
        assertThat(Cli.run("ranges", "list", "--config", file.toString()).err())
                .contains("is not valid YAML");
        Files.writeString(
                file,
                """
                cosid:
                  stores:
                    one:
                      type: zookeeper
                      options:
                        colour: red
                """);
        assertThat(Cli.run("ranges", "list", "--config", file.toString()).err())
                .contains("cosid.stores.one.options.colour");
    }
}
