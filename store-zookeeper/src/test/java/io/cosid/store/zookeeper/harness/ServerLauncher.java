package io.cosid.store.zookeeper.harness;

import java.io.IOException;

/**
 * The main class of a forked ZooKeeper server: runs {@code QuorumPeerMain} and halts the JVM as
 * soon as its standard input closes, which happens when the test JVM that started it dies, however
 * it dies. So no server outlives the build, even after a crash or a kill.
 */
public final class ServerLauncher {

    private ServerLauncher() {}

    /**
     * Starts the server.
     *
     * @param args the path of the server's zoo.cfg
     * @throws Exception if the server cannot be started
     */
    public static void main(String[] args) throws Exception {
        Thread watchdog =
                new Thread(
                        () -> {
                            try {
                                while (System.in.read() != -1) {
                                    // the parent writes nothing; EOF means it is gone
                                }
                            } catch (IOException e) {
                                // a broken pipe means the same
                            }
                            Runtime.getRuntime().halt(0);
                        },
                        "parent-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
        Class.forName("org.apache.zookeeper.server.quorum.QuorumPeerMain")
                .getMethod("main", String[].class)
                .invoke(null, (Object) args);
    }
}
