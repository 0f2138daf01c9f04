package io.cosid.store.zookeeper;

import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.StoreObserver;
import io.cosid.store.tck.StoreFixture;
import io.cosid.store.tck.Tampering;
import io.cosid.store.zookeeper.harness.TlsMaterial;
import io.cosid.store.zookeeper.harness.ZooKeeperServer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.data.Stat;

/**
 * The TCK's view of a ZooKeeper server: every test gets a fresh root on the shared server; every
 * store is a new client with its own session, as a separate process would have; tampering goes
 * through a plain client. The store's clock is the server's, so there is no manual clock.
 */
public final class ZooKeeperFixture implements StoreFixture, Tampering {

    private final ZooKeeperServer server;
    private final String root = "/tck-" + UUID.randomUUID().toString().substring(0, 8);
    private final CuratorFramework admin;
    private final List<Store> opened = new ArrayList<>();
    private final Map<String, String> storeOptions;

    /** A node outside the root that the fixture writes to read the server's clock. */
    private final String probe = root + "-probe";

    public ZooKeeperFixture(ZooKeeperServer server) {
        this(server, Map.of());
    }

    /**
     * A fixture whose stores get extra options (credentials, TLS); the admin client gets the same.
     *
     * @param server the server
     * @param storeOptions options added to every store's configuration
     */
    public ZooKeeperFixture(ZooKeeperServer server, Map<String, String> storeOptions) {
        this.server = server;
        this.storeOptions = Map.copyOf(storeOptions);
        CuratorFrameworkFactory.Builder builder =
                CuratorFrameworkFactory.builder()
                        .connectString(server.connectString())
                        .retryPolicy(new RetryOneTime(100))
                        .ensembleTracker(false);
        if (storeOptions.containsKey("tls.trustStore.location")) {
            builder.zkClientConfig(tlsClientConfig(storeOptions));
        }
        if (storeOptions.containsKey("auth.digest")) {
            builder.authorization(
                    "digest", storeOptions.get("auth.digest").getBytes(StandardCharsets.UTF_8));
        }
        this.admin = builder.build();
        admin.start();
        try {
            if (!admin.blockUntilConnected(20, TimeUnit.SECONDS)) {
                throw new IllegalStateException("cannot connect to " + server);
            }
            create(probe, new byte[0]);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (Exception e) {
            throw new IllegalStateException("cannot prepare " + probe + " on " + server, e);
        }
    }

    public String root() {
        return root;
    }

    public CuratorFramework admin() {
        return admin;
    }

    public StoreConfig config() {
        StoreConfig c =
                StoreConfig.of("tck", "zookeeper")
                        .withTimeout(Duration.ofSeconds(5))
                        .withOption("connectString", server.connectString())
                        .withOption("root", root)
                        .withOption("sessionTimeout", "10s");
        for (Map.Entry<String, String> e : storeOptions.entrySet()) {
            c = c.withOption(e.getKey(), e.getValue());
        }
        return c;
    }

    /** The TLS store options for a TLS-only harness server. */
    public static Map<String, String> tlsOptions(TlsMaterial tls) {
        return Map.of(
                "tls.enabled",
                "true",
                "tls.keyStore.location",
                tls.clientKeyStore().toString(),
                "tls.keyStore.password",
                tls.password(),
                "tls.keyStore.type",
                "PKCS12",
                "tls.trustStore.location",
                tls.trustStore().toString(),
                "tls.trustStore.password",
                tls.password(),
                "tls.trustStore.type",
                "PKCS12");
    }

    private static ZKClientConfig tlsClientConfig(Map<String, String> o) {
        ZKClientConfig c = new ZKClientConfig();
        c.setProperty(ZKClientConfig.SECURE_CLIENT, "true");
        c.setProperty(
                ZKClientConfig.ZOOKEEPER_CLIENT_CNXN_SOCKET,
                "org.apache.zookeeper.ClientCnxnSocketNetty");
        c.setProperty("zookeeper.ssl.keyStore.location", o.get("tls.keyStore.location"));
        c.setProperty("zookeeper.ssl.keyStore.password", o.get("tls.keyStore.password"));
        c.setProperty("zookeeper.ssl.keyStore.type", "PKCS12");
        c.setProperty("zookeeper.ssl.trustStore.location", o.get("tls.trustStore.location"));
        c.setProperty("zookeeper.ssl.trustStore.password", o.get("tls.trustStore.password"));
        c.setProperty("zookeeper.ssl.trustStore.type", "PKCS12");
        return c;
    }

    @Override
    public synchronized Optional<Store> openObservedStore(StoreObserver observer) {
        Store store = ZooKeeperStores.open(config().withObserver(observer));
        opened.add(store);
        return Optional.of(store);
    }

    @Override
    public synchronized Store openStore() {
        Store store = ZooKeeperStores.open(config());
        opened.add(store);
        return store;
    }

    /** The mtime of a fresh write: the server's clock, as the stores read it. */
    @Override
    public Instant storeNow() {
        try {
            return Instant.ofEpochMilli(admin.setData().forPath(probe, new byte[0]).getMtime());
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the server's clock", e);
        }
    }

    private Stat create(String path, byte[] data) throws Exception {
        Stat stat = new Stat();
        admin.create().creatingParentsIfNeeded().storingStatIn(stat).forPath(path, data);
        return stat;
    }

    @Override
    public Optional<Tampering> tampering() {
        return Optional.of(this);
    }

    /**
     * Closes every store the fixture opened and its admin client, all at once: each client's close
     * waits about 100 ms in ZooKeeper's NIO socket cleanup, which one after another would add up
     * over the kit's tests; the clients are independent sessions, so the order does not matter.
     */
    @Override
    public synchronized void close() {
        List<Runnable> closes = new ArrayList<>();
        opened.forEach(store -> closes.add(store::close));
        closes.add(admin::close);
        List<CompletableFuture<Void>> closing = new ArrayList<>();
        for (int i = 0; i < closes.size(); i++) {
            Runnable close = closes.get(i);
            CompletableFuture<Void> done = new CompletableFuture<>();
            Thread t =
                    new Thread(
                            () -> {
                                try {
                                    close.run();
                                    done.complete(null);
                                } catch (RuntimeException | Error e) {
                                    done.completeExceptionally(e);
                                }
                            },
                            "fixture-close-" + i);
            t.setDaemon(true);
            t.start();
            closing.add(done);
        }
        CompletableFuture.allOf(closing.toArray(CompletableFuture[]::new)).join();
    }

    // ---- tampering through a plain client ----

    private void put(String path, String text) {
        byte[] data = text.getBytes(StandardCharsets.UTF_8);
        try {
            if (admin.checkExists().forPath(path) == null) {
                create(path, data);
            } else {
                admin.setData().forPath(path, data);
            }
        } catch (Exception e) {
            throw new IllegalStateException("cannot write " + path, e);
        }
    }

    @Override
    public void corruptRange(String key, String garbage) {
        put(root + "/range/" + key, garbage);
    }

    @Override
    public void rewriteRange(String key, long next, boolean sealed) {
        put(root + "/range/" + key, next + (sealed ? ":sealed" : ""));
    }

    @Override
    public void deleteSlot(String namespace, int slot) {
        String path = root + "/slot/" + namespace + "/" + slot;
        try {
            admin.delete().forPath(path);
        } catch (Exception e) {
            throw new IllegalStateException("cannot delete " + path, e);
        }
    }

    @Override
    public void recreateRange(String key) {
        String path = root + "/range/" + key;
        try {
            byte[] data = admin.getData().forPath(path);
            admin.delete().forPath(path);
            admin.create().forPath(path, data);
        } catch (Exception e) {
            throw new IllegalStateException("cannot recreate " + path, e);
        }
    }

    @Override
    public void corruptNamespace(String namespace, String garbage) {
        put(root + "/slot/" + namespace, garbage);
    }

    @Override
    public void corruptSlot(String namespace, int slot, String garbage) {
        put(root + "/slot/" + namespace + "/" + slot, garbage);
    }

    @Override
    public void corruptOwnerIndex(String namespace, String ownerKey, String garbage) {
        put(root + "/owner/" + namespace + "/" + ownerKey, garbage);
    }

    /**
     * Every node under the root but the bookkeeping of store-zookeeper/README.md ("Bookkeeping"):
     * data, version, czxid and mzxid (which any write changes). Left out are the clocks and the
     * landing hints, {@code {root}/owner/{ns}} itself (its children, the owner indexes, are in).
     */
    @Override
    public Object snapshot() {
        return snapshot(false);
    }

    /** Every node under the root, the clocks and landing hints included. */
    @Override
    public Object fullSnapshot() {
        return snapshot(true);
    }

    private Object snapshot(boolean withClocks) {
        Map<String, String> nodes = new TreeMap<>();
        try {
            walk(root, nodes, withClocks);
        } catch (Exception e) {
            throw new IllegalStateException("cannot read " + root, e);
        }
        return nodes;
    }

    /** The raw data of a node, or null when it does not exist. */
    public String raw(String relativePath) {
        try {
            String path = root + relativePath;
            return admin.checkExists().forPath(path) == null
                    ? null
                    : new String(admin.getData().forPath(path), StandardCharsets.UTF_8);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private void walk(String path, Map<String, String> nodes, boolean withClocks) throws Exception {
        Stat stat = admin.checkExists().forPath(path);
        if (stat == null) {
            return;
        }
        boolean bookkeeping =
                path.endsWith("/.clock") || path.matches(Pattern.quote(root) + "/owner/[^/]+");
        if (withClocks || !bookkeeping) {
            byte[] data = admin.getData().forPath(path);
            nodes.put(
                    path,
                    new String(data, StandardCharsets.UTF_8)
                            + " v"
                            + stat.getVersion()
                            + " c"
                            + stat.getCzxid()
                            + " m"
                            + stat.getMzxid());
        }
        for (String child : admin.getChildren().forPath(path)) {
            walk(path + "/" + child, nodes, withClocks);
        }
    }
}
