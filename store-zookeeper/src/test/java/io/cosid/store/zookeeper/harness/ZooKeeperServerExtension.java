package io.cosid.store.zookeeper.harness;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Gives a test class the shared standalone server of one version: {@code @RegisterExtension static
 * final ZooKeeperServerExtension SERVER = ZooKeeperServerExtension.primary();}
 */
public final class ZooKeeperServerExtension implements BeforeAllCallback {

    private final String version;
    private final boolean tls;
    private volatile ZooKeeperServer server;

    private ZooKeeperServerExtension(String version, boolean tls) {
        this.version = version;
        this.tls = tls;
    }

    /**
     * The 3.9 line.
     *
     * @return the extension
     */
    public static ZooKeeperServerExtension primary() {
        return new ZooKeeperServerExtension(ZooKeeperServers.PRIMARY, false);
    }

    /**
     * The 3.8 line.
     *
     * @return the extension
     */
    public static ZooKeeperServerExtension legacy() {
        return new ZooKeeperServerExtension(ZooKeeperServers.LEGACY, false);
    }

    /**
     * A TLS-only server of the 3.9 line.
     *
     * @return the extension
     */
    public static ZooKeeperServerExtension tls() {
        return new ZooKeeperServerExtension(ZooKeeperServers.PRIMARY, true);
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        server =
                tls ? ZooKeeperServers.tls(context) : ZooKeeperServers.standalone(context, version);
    }

    /**
     * The running server.
     *
     * @return the server
     */
    public ZooKeeperServer server() {
        if (server == null) {
            throw new IllegalStateException(
                    "the server starts before all tests of the class; register the extension"
                            + " in a static field");
        }
        return server;
    }

    /**
     * The certificates of a TLS-only server, for the client's key and trust stores.
     *
     * @return the server's TLS material
     * @throws IllegalStateException if this extension's server is not the TLS-only one
     */
    public TlsMaterial tlsMaterial() {
        if (!tls) {
            throw new IllegalStateException(
                    "this extension's server accepts plain clients; use"
                            + " ZooKeeperServerExtension.tls() for a TLS-only one");
        }
        return ((ForkedEnsemble) server()).tls();
    }
}
