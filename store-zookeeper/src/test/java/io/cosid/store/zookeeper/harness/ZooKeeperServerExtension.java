package io.cosid.store.zookeeper.harness;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Gives a test class the shared standalone server of one version:
 * {@code @RegisterExtension static final ZooKeeperServerExtension SERVER = ZooKeeperServerExtension.primary();}
 */
public final class ZooKeeperServerExtension implements BeforeAllCallback {

    private final String version;
    private volatile ZooKeeperServer server;

    private ZooKeeperServerExtension(String version) {
        this.version = version;
    }

    /**
     * The 3.9 line.
     *
     * @return the extension
     */
    public static ZooKeeperServerExtension primary() {
        return new ZooKeeperServerExtension(ZooKeeperServers.PRIMARY);
    }

    /**
     * The 3.8 line.
     *
     * @return the extension
     */
    public static ZooKeeperServerExtension legacy() {
        return new ZooKeeperServerExtension(ZooKeeperServers.LEGACY);
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        server = ZooKeeperServers.standalone(context, version);
    }

    /**
     * The running server.
     *
     * @return the server
     */
    public ZooKeeperServer server() {
        if (server == null) {
            throw new IllegalStateException("the server starts before all tests of the class; register the extension"
                    + " in a static field");
        }
        return server;
    }
}
