package io.cosid.store.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.StoreException;
import io.cosid.store.StoreUnavailableException;
import io.cosid.store.zookeeper.harness.TlsMaterial;
import io.cosid.store.zookeeper.harness.ZooKeeperServerExtension;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Digest authentication with creator-only ACLs, and TLS, against real servers. */
@DisplayName("ZooKeeper security")
class SecurityTest {

    @RegisterExtension
    static final ZooKeeperServerExtension SERVER = ZooKeeperServerExtension.primary();

    @RegisterExtension static final ZooKeeperServerExtension TLS = ZooKeeperServerExtension.tls();

    private static StoreConfig config(String root, String digest) {
        StoreConfig c =
                StoreConfig.of("secure", "zookeeper")
                        .withTimeout(Duration.ofSeconds(3))
                        .withOption("connectString", SERVER.server().connectString())
                        .withOption("root", root);
        return digest == null ? c : c.withOption("auth.digest", digest);
    }

    private static CuratorFramework client(String digest) throws InterruptedException {
        CuratorFrameworkFactory.Builder b =
                CuratorFrameworkFactory.builder()
                        .connectString(SERVER.server().connectString())
                        .retryPolicy(new RetryOneTime(50));
        if (digest != null) {
            b.authorization("digest", digest.getBytes(StandardCharsets.UTF_8));
        }
        CuratorFramework c = b.build();
        c.start();
        assertThat(c.blockUntilConnected(20, TimeUnit.SECONDS)).isTrue();
        return c;
    }

    @Nested
    @DisplayName(
            "with credentials (auth.digest), every node the store creates is the store's alone")
    class Acl {

        private final String root = "/secure-" + UUID.randomUUID().toString().substring(0, 8);

        private void populate() {
            try (Store store = ZooKeeperStores.open(config(root, "store:secret"))) {
                store.ranges().acquire("orders", 10);
                store.slots().define("workers", 4, Duration.ofMillis(100));
                store.slots().acquire("workers", "host-1", Duration.ofMinutes(1));
            }
        }

        @ParameterizedTest(name = "client credentials {0}")
        @CsvSource(
                value = {"none", "intruder:secret", "store:wrong"},
                nullValues = "none")
        @DisplayName(
                "a client without or with wrong credentials can neither read nor change any store"
                        + " node")
        void strangersLockedOut(String digest) throws Exception {
            populate();
            try (CuratorFramework stranger = client(digest);
                    CuratorFramework owner = client("store:secret")) {
                for (String node :
                        List.of(
                                root,
                                root + "/range/orders",
                                root + "/slot/workers",
                                root + "/slot/workers/0",
                                root + "/owner/workers/host-1")) {
                    assertThat(owner.getACL().forPath(node))
                            .as(node)
                            .hasSize(1)
                            .allSatisfy(
                                    acl -> assertThat(acl.getId().getScheme()).isEqualTo("digest"));
                    byte[] before = owner.getData().forPath(node);
                    assertThatThrownBy(() -> stranger.getData().forPath(node))
                            .as("read " + node)
                            .isInstanceOf(KeeperException.NoAuthException.class);
                    assertThatThrownBy(() -> stranger.setData().forPath(node, new byte[] {1}))
                            .as("write " + node)
                            .isInstanceOf(KeeperException.NoAuthException.class);
                    assertThatThrownBy(() -> stranger.delete().forPath(node + "/x"))
                            .as("delete under " + node)
                            .isInstanceOf(KeeperException.class);
                    assertThat(owner.getData().forPath(node)).isEqualTo(before);
                }
                assertThatThrownBy(() -> stranger.getChildren().forPath(root))
                        .isInstanceOf(KeeperException.NoAuthException.class);
            }
        }

        @Test
        @DisplayName(
                "a store with the wrong credentials is refused at open with a clear NoAuth error,"
                        + " changing nothing")
        void misconfiguredStore() {
            populate();
            assertThatThrownBy(() -> ZooKeeperStores.open(config(root, "store:wrong")))
                    .isInstanceOf(StoreException.class)
                    .hasMessageContaining("not authorized")
                    .hasMessageContaining(root);
            try (Store right = ZooKeeperStores.open(config(root, "store:secret"))) {
                assertThat(right.ranges().peek("orders").orElseThrow().next()).isEqualTo(10);
                assertThat(right.ranges().acquire("orders", 1).start()).isEqualTo(10);
            }
        }

        @Test
        @DisplayName(
                "a store without credentials refused a write names the node the refusal was about")
        void refusalNamesTheNode() {
            populate();
            try (Store anonymous = ZooKeeperStores.open(config(root, null))) {
                assertThatThrownBy(() -> anonymous.slots().define("fresh", 2, Duration.ZERO))
                        .isInstanceOf(StoreException.class)
                        .hasMessageContaining("not authorized for " + root + "/slot")
                        .hasMessageNotContaining("null");
            }
        }

        @Test
        @DisplayName(
                "parents created open by an operator are refused at open, naming the node: they"
                        + " would void the creator ACL")
        void openParentsRefused() throws Exception {
            try (CuratorFramework operator = client(null)) {
                operator.create().creatingParentsIfNeeded().forPath(root + "/range");
            }
            assertThatThrownBy(() -> ZooKeeperStores.open(config(root, "store:secret")))
                    .isInstanceOf(StoreException.class)
                    .hasMessageContaining("parent node " + root)
                    .hasMessageContaining("world:anyone")
                    .hasMessageContaining("acl.fixParents");
        }

        @Test
        @DisplayName(
                "with acl.fixParents the store gives open parents its own ACL: nobody else can"
                        + " delete and recreate a key")
        void openParentsFixed() throws Exception {
            try (CuratorFramework operator = client(null)) {
                operator.create().creatingParentsIfNeeded().forPath(root + "/range");
            }
            try (Store store =
                    ZooKeeperStores.open(
                            config(root, "store:secret").withOption("acl.fixParents", "true"))) {
                store.ranges().acquire("k", 100);
            }
            try (CuratorFramework anonymous = client(null)) {
                assertThatThrownBy(() -> anonymous.delete().forPath(root + "/range/k"))
                        .isInstanceOf(KeeperException.NoAuthException.class);
            }
            try (Store store = ZooKeeperStores.open(config(root, "store:secret"))) {
                assertThat(store.ranges().acquire("k", 1).start())
                        .as("never [0, 100) again")
                        .isEqualTo(100);
            }
        }

        @Test
        @DisplayName(
                "an open namespace parent or range key prefix is refused at first use, naming the"
                        + " node")
        void openSubtreeParentsRefused() throws Exception {
            populate();
            try (CuratorFramework owner = client("store:secret")) {
                owner.create().withACL(ZooDefs.Ids.OPEN_ACL_UNSAFE).forPath(root + "/slot/open-ns");
                owner.create().withACL(ZooDefs.Ids.OPEN_ACL_UNSAFE).forPath(root + "/range/prefix");
            }
            try (Store store = ZooKeeperStores.open(config(root, "store:secret"))) {
                assertThatThrownBy(() -> store.slots().define("open-ns", 2, Duration.ZERO))
                        .isInstanceOf(StoreException.class)
                        .hasMessageContaining(root + "/slot/open-ns");
                assertThatThrownBy(() -> store.ranges().acquire("prefix/k", 1))
                        .isInstanceOf(StoreException.class)
                        .hasMessageContaining(root + "/range/prefix");
                assertThat(store.ranges().acquire("orders", 1).start()).isEqualTo(10);
            }
        }

        @Test
        @DisplayName("without credentials the documented default is open: anyone may read")
        void openByDefault() throws Exception {
            try (Store store = ZooKeeperStores.open(config(root, null));
                    CuratorFramework anyone = client(null)) {
                store.ranges().acquire("orders", 3);
                assertThat(anyone.getACL().forPath(root + "/range/orders"))
                        .isEqualTo(ZooDefs.Ids.OPEN_ACL_UNSAFE);
            }
        }

        @ParameterizedTest(name = "{0} = {1}")
        @CsvSource(
                delimiter = '|',
                value = {
                    "acl|creator|needs credentials",
                    "acl|everyone|must be open or creator",
                    "auth.digest|nopassword|must be user:password",
                    "auth.digest|:x|must be user:password"
                })
        @DisplayName("bad security options are errors naming the key")
        void badOptions(String key, String value, String message) {
            assertThatThrownBy(
                            () -> ZooKeeperStores.open(config(root, null).withOption(key, value)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("cosid.stores.secure.options." + key)
                    .hasMessageContaining(message);
        }
    }

    @Nested
    @DisplayName("TLS")
    class Tls {

        private StoreConfig tlsConfig(String connectString, Map<String, String> tls) {
            StoreConfig c =
                    StoreConfig.of("tls", "zookeeper")
                            .withOption("connectString", connectString)
                            .withOption(
                                    "root", "/tls-" + UUID.randomUUID().toString().substring(0, 8));
            for (Map.Entry<String, String> e : tls.entrySet()) {
                c = c.withOption(e.getKey(), e.getValue());
            }
            return c;
        }

        private Map<String, String> goodTls() {
            return ZooKeeperFixture.tlsOptions(TLS.tlsMaterial());
        }

        /**
         * Opens and returns how long the refusal took; it must name the cause well before the 10 s
         * wait.
         */
        private void refusedAtOnce(StoreConfig config, String cause) {
            long started = System.nanoTime();
            assertThatThrownBy(() -> ZooKeeperStores.open(config))
                    .isInstanceOf(StoreUnavailableException.class)
                    .hasMessageContaining(cause);
            assertThat(Duration.ofNanos(System.nanoTime() - started))
                    .as("named before blockUntilConnectedWait ends")
                    .isLessThan(Duration.ofSeconds(9));
        }

        @Test
        @DisplayName("a plain client on a TLS-only port fails at open, saying the port speaks TLS")
        void plainClientRefused() {
            refusedAtOnce(
                    StoreConfig.of("plain", "zookeeper")
                            .withOption("connectString", TLS.server().connectString()),
                    "speaks TLS");
        }

        @Test
        @DisplayName(
                "a server certificate the trust store does not trust fails at open with the PKIX"
                        + " cause")
        void untrustedServer(@TempDir Path dir) {
            TlsMaterial other = TlsMaterial.generate(dir);
            Map<String, String> tls = new HashMap<>(goodTls());
            tls.put("tls.trustStore.location", other.trustStore().toString());
            tls.put("tls.trustStore.password", other.password());
            refusedAtOnce(tlsConfig(TLS.server().connectString(), tls), "PKIX");
        }

        @Test
        @DisplayName(
                "a missing client key, where the server wants a certificate, fails at open with the"
                        + " handshake's cause")
        void missingClientKey() {
            Map<String, String> tls = new HashMap<>(goodTls());
            tls.keySet().removeIf(k -> k.startsWith("tls.keyStore."));
            refusedAtOnce(tlsConfig(TLS.server().connectString(), tls), "TLS handshake with");
        }

        @Test
        @DisplayName("a wrong key store password fails before connecting, naming the option")
        void wrongPassword() {
            Map<String, String> tls = new HashMap<>(goodTls());
            tls.put("tls.keyStore.password", "wrong");
            long started = System.nanoTime();
            assertThatThrownBy(
                            () ->
                                    ZooKeeperStores.open(
                                            tlsConfig(TLS.server().connectString(), tls)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("tls.keyStore.location")
                    .hasMessageContaining("tls.keyStore.password");
            assertThat(Duration.ofNanos(System.nanoTime() - started))
                    .isLessThan(Duration.ofSeconds(5));
        }

        @Test
        @DisplayName(
                "a TLS client on a plain port fails at open, saying the port does not speak TLS")
        void tlsOnPlainPort() {
            refusedAtOnce(
                    tlsConfig(SERVER.server().connectString(), goodTls()), "does not speak TLS");
        }

        @Test
        @DisplayName("a store with the client's key and trust stores works over TLS")
        void tlsClientWorks() {
            Map<String, String> tls = ZooKeeperFixture.tlsOptions(TLS.tlsMaterial());
            StoreConfig c =
                    StoreConfig.of("tls", "zookeeper")
                            .withOption("connectString", TLS.server().connectString())
                            .withOption(
                                    "root", "/tls-" + UUID.randomUUID().toString().substring(0, 8));
            for (Map.Entry<String, String> e : tls.entrySet()) {
                c = c.withOption(e.getKey(), e.getValue());
            }
            try (Store store = ZooKeeperStores.open(c)) {
                assertThat(store.ranges().acquire("k", 5).end()).isEqualTo(5);
            }
        }

        @ParameterizedTest(name = "{0} = {1}")
        @CsvSource(
                delimiter = '|',
                value = {
                    "tls.enabled|yes|must be true or false",
                    "tls.keyStore.location|/nonexistent.p12|must be true when",
                    "tls.enabled|true|tls.trustStore.location is required"
                })
        @DisplayName("bad TLS options are errors naming the key")
        void badOptions(String key, String value, String message) {
            assertThatThrownBy(
                            () ->
                                    ZooKeeperStores.open(
                                            StoreConfig.of("tls", "zookeeper")
                                                    .withOption(key, value)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(message);
        }
    }
}
