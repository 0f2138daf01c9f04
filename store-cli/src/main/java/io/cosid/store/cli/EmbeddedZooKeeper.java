package io.cosid.store.cli;

import java.nio.file.Path;
import java.util.Properties;
import org.apache.zookeeper.server.embedded.ExitHandler;
import org.apache.zookeeper.server.embedded.ZooKeeperServerEmbedded;
import org.jspecify.annotations.Nullable;

/**
 * A real ZooKeeper server in this process on a loopback port, for the demo and the {@code server}
 * command; temporary data is removed on close.
 */
final class EmbeddedZooKeeper extends EmbeddedServer {

    private @Nullable ZooKeeperServerEmbedded server;

    private EmbeddedZooKeeper(int port, boolean removeData) {
        super("ZooKeeper", port, removeData);
    }

    /** A server on a free port with its data in a temporary directory, removed on close. */
    static EmbeddedZooKeeper start() {
        return start(0, null);
    }

    /**
     * A server on {@code port} (0: a free one); its data in {@code dataDir}, kept, or, when null,
     * in a temporary directory removed on close and on exit, a signal during start-up included.
     */
    static EmbeddedZooKeeper start(int port, @Nullable Path dataDir) {
        EmbeddedZooKeeper zk = new EmbeddedZooKeeper(port(port, "ZooKeeper"), dataDir == null);
        zk.begin(dataDir);
        return zk;
    }

    @Override
    void startIn(Path dir) throws Exception {
        Properties config = new Properties();
        config.setProperty("clientPort", Integer.toString(port()));
        config.setProperty("clientPortAddress", "127.0.0.1");
        config.setProperty("dataDir", dir.resolve("data").toString());
        config.setProperty("tickTime", "500");
        config.setProperty("admin.enableServer", "false");
        config.setProperty("4lw.commands.whitelist", "srvr,ruok,mntr");
        ZooKeeperServerEmbedded built =
                ZooKeeperServerEmbedded.builder()
                        .baseDir(dir)
                        .configuration(config)
                        .exitHandler(ExitHandler.LOG_ONLY)
                        .build();
        server = built;
        built.start(30_000);
    }

    @Override
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Override
    String address() {
        return connectString();
    }

    String connectString() {
        return "127.0.0.1:" + port();
    }
}
