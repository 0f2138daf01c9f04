package io.cosid.store.zookeeper.internal;

import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.StoreUnavailableException;
import io.cosid.store.Ticker;
import io.cosid.store.spi.ObservedStore;
import io.cosid.store.zookeeper.internal.connect.ClientClose;
import io.cosid.store.zookeeper.internal.connect.ClientOwnership;
import io.cosid.store.zookeeper.internal.connect.ConnectProbe;
import io.cosid.store.zookeeper.internal.connect.ZooKeeperOptions;
import io.cosid.store.zookeeper.internal.wire.Observations;
import io.cosid.store.zookeeper.internal.wire.ZooKeeperLog;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.imps.CuratorFrameworkState;
import org.apache.curator.retry.BoundedExponentialBackoffRetry;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.common.ClientX509Util;
import org.jspecify.annotations.Nullable;

/**
 * Builds a store: parses the options, builds and connects a client when the store owns one, and
 * wires the object graph with Dagger. Called only by {@code ZooKeeperStores}.
 */
public final class ZooKeeperStoreAssembly {

    /** The backend's type name. */
    public static final String TYPE = ZooKeeperOptions.TYPE;

    private ZooKeeperStoreAssembly() {}

    /**
     * Every option key of this backend, as it spells them.
     *
     * @return the keys
     */
    public static Set<String> optionKeys() {
        Set<String> all = new TreeSet<>(ZooKeeperOptions.CLIENT_OPTIONS);
        all.addAll(ZooKeeperOptions.STORE_OPTIONS);
        return Collections.unmodifiableSet(all);
    }

    /**
     * The option keys that configure the client a store builds for itself: with none of them, a
     * store can use the application's client instead.
     *
     * @return the keys
     */
    public static Set<String> clientOptionKeys() {
        return ZooKeeperOptions.CLIENT_OPTIONS;
    }

    /**
     * A store with a client of its own, connected before this returns and closed with the store.
     *
     * @param configured the store's configuration
     * @return the open store
     */
    public static Store open(StoreConfig configured) {
        StoreConfig config = configured.withOptionKeysAs(optionKeys());
        ZooKeeperOptions options = ZooKeeperOptions.parse(config, true);
        if (config.option(ZooKeeperOptions.CONNECT_STRING, null) == null) {
            new ZooKeeperLog()
                    .defaultConnectString(
                            config.name(),
                            config.optionPath(ZooKeeperOptions.CONNECT_STRING),
                            options.connectString());
        }
        CuratorFrameworkFactory.Builder builder =
                CuratorFrameworkFactory.builder()
                        .connectString(options.connectString())
                        .sessionTimeoutMs(millis(options.sessionTimeout()))
                        .connectionTimeoutMs(millis(options.connectionTimeout()))
                        .retryPolicy(
                                new BoundedExponentialBackoffRetry(
                                        millis(options.retryBaseSleep()),
                                        millis(options.retryMaxSleep()),
                                        options.retryMaxRetries()))
                        // the connect string is the operator's; do not let /zookeeper/config
                        // rewrite it (NAT, chroot)
                        .ensembleTracker(false);
        if (options.authDigest() != null) {
            builder.authorization("digest", options.authDigest().getBytes(StandardCharsets.UTF_8));
        }
        if (!options.tls().isEmpty()) {
            builder.zkClientConfig(tlsConfig(options.tls()));
        }
        CuratorFramework client = builder.build();
        client.start();
        try {
            awaitConnection(client, options);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            ClientClose.within(client, UNCONNECTED_CLOSE);
            throw new StoreUnavailableException(
                    options.connectString(), "interrupted while connecting", e);
        } catch (RuntimeException e) {
            // a client that never connected has no session to end: do not wait for it
            ClientClose.within(client, UNCONNECTED_CLOSE);
            throw e;
        }
        return checked(
                DaggerZooKeeperStoreComponent.factory()
                        .create(config, options, client, ClientOwnership.OWNED, Ticker.system()),
                true);
    }

    /**
     * How long a failed open waits for its client to close: it never connected, so there is no
     * session to end, and the open has used its budget already ({@link ClientClose}).
     */
    private static final Duration UNCONNECTED_CLOSE = Duration.ofMillis(100);

    /**
     * How long a connection may take before the store probes the servers to say why it does not
     * come.
     */
    private static final long PROBE_AFTER_MILLIS = 1000;

    /**
     * Waits for the connection up to {@code blockUntilConnectedWait}. If it is not there after a
     * short grace, the servers are probed ({@link ConnectProbe}) meanwhile: when the probe shows
     * that no server can work (an unknown host, nothing listening, a TLS handshake refused, TLS on
     * one side only), the open fails at once with that cause; otherwise at the end of the wait,
     * with whatever the probe found.
     */
    private static void awaitConnection(CuratorFramework client, ZooKeeperOptions options)
            throws InterruptedException {
        long wait = options.blockUntilConnectedWait().toMillis();
        // probe after the grace, or half the wait when that is shorter, so that a short wait
        // still says why
        long grace = Math.min(wait / 2, PROBE_AFTER_MILLIS);
        if (client.blockUntilConnected((int) grace, TimeUnit.MILLISECONDS)) {
            return;
        }
        var probe =
                ConnectProbe.start(
                        options, (int) Math.min(options.connectionTimeout().toMillis(), 3000));
        // before the store exists: the JVM's clock, as the client's own wait reads it
        Ticker ticker = Ticker.system();
        long deadline = ticker.nanos() + TimeUnit.MILLISECONDS.toNanos(Math.max(0, wait - grace));
        long remaining = deadline - ticker.nanos();
        while (remaining > 0) {
            if (client.blockUntilConnected(
                    (int) Math.max(1, Math.min(100, TimeUnit.NANOSECONDS.toMillis(remaining))),
                    TimeUnit.MILLISECONDS)) {
                return;
            }
            if (probe.isDone() && ConnectProbe.noServerCanWork(probe.join())) {
                // no server can work: every finding names its problem
                String problems = Objects.requireNonNull(ConnectProbe.describe(probe.join()));
                throw new StoreUnavailableException(options.connectString(), problems, null);
            }
            remaining = deadline - ticker.nanos();
        }
        String found = probe.isDone() ? ConnectProbe.describe(probe.join()) : null;
        throw new StoreUnavailableException(
                options.connectString(),
                "no connection within "
                        + StoreConfig.formatDuration(options.blockUntilConnectedWait())
                        + " (blockUntilConnectedWait)"
                        + (found == null ? "" : ": " + found),
                null);
    }

    /**
     * A store on a started client that the caller owns and closes.
     *
     * @param configured the store's configuration
     * @param client a started client
     * @return the open store
     */
    public static Store open(StoreConfig configured, CuratorFramework client) {
        StoreConfig config = configured.withOptionKeysAs(optionKeys());
        ZooKeeperOptions options = ZooKeeperOptions.parse(config, false);
        if (client == null || client.getState() != CuratorFrameworkState.STARTED) {
            throw new IllegalArgumentException(
                    "the CuratorFramework passed to ZooKeeperStores.open must be started,"
                            + " got "
                            + (client == null ? "null" : client.getState()));
        }
        return checked(
                DaggerZooKeeperStoreComponent.factory()
                        .create(config, options, client, ClientOwnership.BORROWED, Ticker.system()),
                false);
    }

    /**
     * The component's store once its open checks passed; closed (with a client it owns) when they
     * fail.
     */
    private static Store checked(ZooKeeperStoreComponent component, boolean ownClient) {
        Store store = component.store();
        try {
            component.openChecks().run(ownClient);
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
        component.connectionReports().start();
        Observations observations = component.observations();
        observations
                .log()
                .openedWith(component.config().name(), component.options().describe(ownClient));
        return ObservedStore.observe(store, observations.observer());
    }

    /**
     * The ZooKeeper client's TLS settings: a Netty socket, secure, with the given key and trust
     * stores.
     */
    private static ZKClientConfig tlsConfig(Map<String, String> tls) {
        ZKClientConfig c = new ZKClientConfig();
        c.setProperty(ZKClientConfig.SECURE_CLIENT, "true");
        c.setProperty(
                ZKClientConfig.ZOOKEEPER_CLIENT_CNXN_SOCKET,
                "org.apache.zookeeper.ClientCnxnSocketNetty");
        try (ClientX509Util x509 = new ClientX509Util()) {
            put(c, x509.getSslKeystoreLocationProperty(), tls.get("tls.keyStore.location"));
            put(c, x509.getSslKeystorePasswdProperty(), tls.get("tls.keyStore.password"));
            put(c, x509.getSslKeystoreTypeProperty(), tls.get("tls.keyStore.type"));
            put(c, x509.getSslTruststoreLocationProperty(), tls.get("tls.trustStore.location"));
            put(c, x509.getSslTruststorePasswdProperty(), tls.get("tls.trustStore.password"));
            put(c, x509.getSslTruststoreTypeProperty(), tls.get("tls.trustStore.type"));
        }
        return c;
    }

    private static void put(ZKClientConfig c, String key, @Nullable String value) {
        if (value != null) {
            c.setProperty(key, value);
        }
    }

    private static int millis(Duration d) {
        return (int) Math.min(Integer.MAX_VALUE, d.toMillis());
    }
}
