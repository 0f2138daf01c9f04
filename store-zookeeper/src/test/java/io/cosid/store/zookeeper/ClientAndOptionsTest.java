package io.cosid.store.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.StoreException;
import io.cosid.store.StoreUnavailableException;
import io.cosid.store.Stores;
import io.cosid.store.zookeeper.harness.FourLetterWords;
import io.cosid.store.zookeeper.harness.ZooKeeperServerExtension;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.imps.CuratorFrameworkState;
import org.apache.curator.retry.RetryOneTime;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@DisplayName("ZooKeeper client and options")
class ClientAndOptionsTest {

    @RegisterExtension
    static final ZooKeeperServerExtension SERVER = ZooKeeperServerExtension.primary();

    private static String root() {
        return "/opts-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private static StoreConfig config(String root) {
        return StoreConfig.of("main", "zookeeper")
                .withOption("connectString", SERVER.server().connectString())
                .withOption("root", root);
    }

    private static CuratorFramework client(String connectString) throws InterruptedException {
        CuratorFramework client =
                CuratorFrameworkFactory.newClient(connectString, new RetryOneTime(100));
        client.start();
        assertThat(client.blockUntilConnected(20, TimeUnit.SECONDS)).isTrue();
        return client;
    }

    private static long aliveConnections() {
        String first = SERVER.server().connectString().split(",", -1)[0];
        int port = Integer.parseInt(first.substring(first.lastIndexOf(':') + 1));
        String mntr = FourLetterWords.send(port, "mntr").orElseThrow();
        Matcher m = Pattern.compile("zk_num_alive_connections\\s+(\\d+)").matcher(mntr);
        assertThat(m.find()).as("mntr reports connections").isTrue();
        return Long.parseLong(m.group(1));
    }

    @Nested
    @DisplayName("who owns the client")
    class Ownership {

        @Test
        @DisplayName("a store that built its client closes it on close")
        void ownClientClosed() {
            long before = aliveConnections();
            Store store = ZooKeeperStores.open(config(root()));
            store.ranges().acquire("k", 1);
            assertThat(aliveConnections()).isEqualTo(before + 1);
            store.close();
            Awaitility.await()
                    .atMost(Duration.ofSeconds(10))
                    .until(() -> aliveConnections() == before);
            assertThatThrownBy(() -> store.ranges().acquire("k", 1))
                    .isInstanceOf(IllegalStateException.class);
        }

        @Test
        @DisplayName("a caller's started client is used and left open on close")
        void callerClientLeftOpen() throws Exception {
            String root = root();
            try (CuratorFramework client = client(SERVER.server().connectString())) {
                Store store =
                        ZooKeeperStores.open(
                                StoreConfig.of("main", "zookeeper").withOption("root", root),
                                client);
                assertThat(store.ranges().acquire("k", 7).end()).isEqualTo(7);
                store.close();
                assertThat(client.getState()).isEqualTo(CuratorFrameworkState.STARTED);
                assertThat(
                                new String(
                                        client.getData().forPath(root + "/range/k"),
                                        StandardCharsets.US_ASCII))
                        .isEqualTo("7");
                assertThatThrownBy(() -> store.ranges().acquire("k", 1))
                        .isInstanceOf(IllegalStateException.class);
            }
        }

        @Test
        @DisplayName("a client that is not started is refused")
        void unstartedClient() {
            CuratorFramework client =
                    CuratorFrameworkFactory.newClient(
                            SERVER.server().connectString(), new RetryOneTime(1));
            assertThatThrownBy(
                            () -> ZooKeeperStores.open(StoreConfig.of("main", "zookeeper"), client))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("must be started")
                    .hasMessageContaining("LATENT");
        }

        @Test
        @DisplayName("a caller's client with a Curator namespace puts the store's root inside it")
        void curatorNamespace() throws Exception {
            String root = root();
            try (CuratorFramework client = client(SERVER.server().connectString())) {
                CuratorFramework namespaced = client.usingNamespace("app-" + root.substring(6));
                Store store =
                        ZooKeeperStores.open(
                                StoreConfig.of("main", "zookeeper").withOption("root", root),
                                namespaced);
                store.ranges().acquire("k", 3);
                assertThat(
                                client.checkExists()
                                        .forPath("/app-" + root.substring(6) + root + "/range/k"))
                        .isNotNull();
                store.close();
            }
        }
    }

    @Test
    @DisplayName(
            "option keys are matched ignoring case and dashes, as environment variables give them")
    void looseOptionKeys() {
        String root = root();
        try (Store store =
                ZooKeeperStores.open(
                        StoreConfig.of("main", "zookeeper")
                                .withOption("connectstring", SERVER.server().connectString())
                                .withOption("ROOT", root)
                                .withOption("retry.max-retries", "3"))) {
            assertThat(store.ranges().acquire("orders", 10).start()).isZero();
        }
        try (Store store = ZooKeeperStores.open(config(root))) {
            assertThat(store.ranges().peek("orders")).isPresent();
        }
    }

    @Test
    @DisplayName("a chroot in the connect string works")
    void chroot() throws Exception {
        String chroot = root();
        try (CuratorFramework client = client(SERVER.server().connectString())) {
            client.create().forPath(chroot);
            try (Store store =
                    ZooKeeperStores.open(
                            StoreConfig.of("main", "zookeeper")
                                    .withOption(
                                            "connectString",
                                            SERVER.server().connectString() + chroot))) {
                store.ranges().acquire("k", 4);
                store.slots().define("ns", 2, Duration.ZERO);
                assertThat(store.slots().acquire("ns", "o", Duration.ofSeconds(10)).slot())
                        .isZero();
            }
            assertThat(
                            new String(
                                    client.getData().forPath(chroot + "/cosid/range/k"),
                                    StandardCharsets.US_ASCII))
                    .isEqualTo("4");
        }
    }

    @Test
    @DisplayName(
            "an unknown host or a port where nothing listens fails at open with that cause, before"
                    + " the wait ends")
    void unreachableNamed() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        for (String[] c :
                new String[][] {
                    {"no-such-host.invalid:2181", "unknown host no-such-host.invalid"},
                    {"127.0.0.1:" + closedPort, "nothing listens on 127.0.0.1:" + closedPort}
                }) {
            long started = System.nanoTime();
            assertThatThrownBy(
                            () ->
                                    ZooKeeperStores.open(
                                            StoreConfig.of("main", "zookeeper")
                                                    .withOption("connectString", c[0])))
                    .isInstanceOf(StoreUnavailableException.class)
                    .hasMessageContaining(c[1]);
            assertThat(Duration.ofNanos(System.nanoTime() - started))
                    .isLessThan(Duration.ofSeconds(9));
        }
    }

    @Test
    @DisplayName("a chroot that does not exist fails at open with a StoreException naming it")
    void absentChroot() {
        String chroot = root();
        assertThatThrownBy(
                        () ->
                                ZooKeeperStores.open(
                                        StoreConfig.of("main", "zookeeper")
                                                .withOption(
                                                        "connectString",
                                                        SERVER.server().connectString() + chroot)))
                .isInstanceOf(StoreException.class)
                .hasMessageContaining("chroot " + chroot)
                .hasMessageContaining("does not exist");
    }

    @Test
    @DisplayName("type zookeeper opens through Stores from cosid.stores configuration")
    void provider() {
        String root = root();
        Map<String, Object> settings =
                Map.of(
                        "cosid",
                        Map.of(
                                "stores",
                                Map.of(
                                        "zk",
                                        Map.of(
                                                "type",
                                                "zookeeper",
                                                "timeout",
                                                "2s",
                                                "options",
                                                Map.of(
                                                        "connectString",
                                                        SERVER.server().connectString(),
                                                        "root",
                                                        root,
                                                        "retry",
                                                        Map.of("maxRetries", 3))))));
        try (Store store = Stores.open("zk", settings)) {
            assertThat(store.type()).isEqualTo("zookeeper");
            assertThat(store.ranges().acquire("k", 2).end()).isEqualTo(2);
        }
        assertThat(Stores.types()).contains("zookeeper");
    }

    @Nested
    @DisplayName("options")
    class Options {

        @ParameterizedTest(name = "{0} = {1}")
        @CsvSource(
                delimiter = '|',
                value = {
                    "sessionTimeout|60|cosid.stores.main.options.sessionTimeout",
                    "connectionTimeout|-1s|cosid.stores.main.options.connectionTimeout",
                    "blockUntilConnectedWait|soon|"
                            + "cosid.stores.main.options.blockUntilConnectedWait",
                    "retry.maxRetries|many|cosid.stores.main.options.retry.maxRetries",
                    "retry.maxRetries|30|cosid.stores.main.options.retry.maxRetries",
                    "retry.baseSleepTime|0ms|cosid.stores.main.options.retry.baseSleepTime",
                    "retry.maxSleep|1 s|cosid.stores.main.options.retry.maxSleep",
                    "root|cosid|cosid.stores.main.options.root",
                    "root|/|cosid.stores.main.options.root",
                    "root|/cosid/|cosid.stores.main.options.root",
                    "root|/a//b|cosid.stores.main.options.root",
                    "root|/zookeeper/x|cosid.stores.main.options.root",
                    "connectString|' '|cosid.stores.main.options.connectString",
                    "connectString|zk-1:21x81|port '21x81'",
                    "connectString|zk-1:0|port '0'",
                    "connectString|zk-1:65536|port '65536'",
                    "connectString|'zk-1:2181,,zk-2:2181'|an empty server between commas",
                    "connectString|:2181|no valid host",
                    "connectString|zk 1:2181|no valid host",
                    "connectString|[::1:2181|does not close it",
                    "connectString|zk-1:2181/app/|the chroot '/app/'",
                    "connectString|zk-1:2181//app|the chroot '//app'",
                    "connectString|/app|no server before the chroot",
                    "connectStrng|x:1|cosid.stores.main.options.connectStrng"
                })
        @DisplayName(
                "a malformed value or unknown key is an error naming the key, before any"
                        + " connection")
        void malformed(String key, String value, String named) {
            assertThatThrownBy(
                            () ->
                                    ZooKeeperStores.open(
                                            StoreConfig.of("main", "zookeeper")
                                                    .withOption(key, value)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(named);
        }

        @Test
        @DisplayName("client options are refused with a caller's client, naming why")
        void clientOptionsWithCallerClient() throws Exception {
            try (CuratorFramework client = client(SERVER.server().connectString())) {
                assertThatThrownBy(
                                () ->
                                        ZooKeeperStores.open(
                                                StoreConfig.of("main", "zookeeper")
                                                        .withOption(
                                                                "connectString", "elsewhere:2181"),
                                                client))
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining("cosid.stores.main.options.connectString")
                        .hasMessageContaining("CuratorFramework passed by the caller");
            }
        }

        @Test
        @DisplayName(
                "no server within blockUntilConnectedWait is StoreUnavailableException naming the"
                        + " address and the cause, or the wait")
        void unreachable() throws Exception {
            int port;
            try (ServerSocket socket = new ServerSocket(0)) {
                port = socket.getLocalPort();
            }
            String address = "127.0.0.1:" + port;
            long start = System.nanoTime();
            assertThatThrownBy(
                            () ->
                                    ZooKeeperStores.open(
                                            StoreConfig.of("main", "zookeeper")
                                                    .withOption("connectString", address)
                                                    .withOption(
                                                            "blockUntilConnectedWait", "300ms")))
                    .isInstanceOf(StoreUnavailableException.class)
                    .hasMessageContaining(address)
                    // the probe names the cause when it finishes within the wait (it starts after
                    // half of it); on a busy machine the wait may end first and is named instead
                    .hasMessageMatching(
                            ".*(nothing listens on "
                                    + address
                                    + " \\(connection refused\\)|no connection within 300ms"
                                    + " \\(blockUntilConnectedWait\\)).*");
            assertThat(Duration.ofNanos(System.nanoTime() - start))
                    .isLessThan(Duration.ofSeconds(5));
        }
    }
}
