package io.cosid.store.zookeeper.harness;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.testcontainers.DockerClientFactory;

/**
 * The standalone servers the tests share, one per version, started on first use and stopped when
 * the test run ends (through the root {@link ExtensionContext}'s store, which closes them even when
 * tests fail).
 *
 * <p>System property {@code cosid.zk.servers} picks how: {@code forked} (separate JVM processes
 * from the Maven artifacts), {@code testcontainers} (a {@code zookeeper:<line>} container), or
 * {@code auto} (the default: a container when a Docker engine is reachable, forked processes
 * otherwise; no engine is never a failure).
 */
public final class ZooKeeperServers {

    /** The primary server version (3.9 line). */
    public static final String PRIMARY = System.getProperty("cosid.zk.primary", "3.9.5");

    /** The older supported line (3.8). */
    public static final String LEGACY = System.getProperty("cosid.zk.legacy", "3.8.6");

    /** A server too old for the store (3.5: no read-only multi), which open must refuse. */
    public static final String TOO_OLD = System.getProperty("cosid.zk.tooOld", "3.5.10");

    private static final Map<String, ZooKeeperServer> STANDALONE = new ConcurrentHashMap<>();

    private ZooKeeperServers() {}

    /**
     * The shared standalone server of a version, started if needed and closed at the end of the
     * run.
     *
     * @param context any extension context of the running test
     * @param version the server version
     * @return the running server
     */
    public static ZooKeeperServer standalone(ExtensionContext context, String version) {
        return STANDALONE.computeIfAbsent(
                version,
                v -> {
                    ZooKeeperServer server = start(v);
                    context.getRoot()
                            .getStore(ExtensionContext.Namespace.GLOBAL)
                            .put(
                                    "zookeeper-" + v,
                                    (AutoCloseable)
                                            () -> {
                                                STANDALONE.remove(v);
                                                server.close();
                                            });
                    return server;
                });
    }

    /**
     * The shared TLS-only standalone server of the primary version, started if needed.
     *
     * @param context any extension context of the running test
     * @return the running server
     */
    public static ForkedEnsemble tls(ExtensionContext context) {
        return (ForkedEnsemble)
                STANDALONE.computeIfAbsent(
                        "tls-" + PRIMARY,
                        v -> {
                            ForkedEnsemble server = ForkedEnsemble.tlsStandalone(PRIMARY);
                            context.getRoot()
                                    .getStore(ExtensionContext.Namespace.GLOBAL)
                                    .put(
                                            "zookeeper-" + v,
                                            (AutoCloseable)
                                                    () -> {
                                                        STANDALONE.remove(v);
                                                        server.close();
                                                    });
                            return server;
                        });
    }

    /**
     * Whether a Docker engine is reachable, checked without side effects when plainly absent.
     *
     * @return true when Testcontainers can run containers here
     */
    public static boolean dockerAvailable() {
        boolean hint =
                System.getenv("DOCKER_HOST") != null
                        || Files.exists(Path.of("/var/run/docker.sock"));
        if (!hint) {
            return false;
        }
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    /**
     * A new standalone server in a container (the caller closes it); needs a Docker engine.
     *
     * @param version the server version; its line picks the image tag
     * @return the running server
     */
    public static ZooKeeperServer container(String version) {
        return new ContainerServer(version);
    }

    private static ZooKeeperServer start(String version) {
        String mode = System.getProperty("cosid.zk.servers", "auto");
        boolean containers =
                switch (mode) {
                    case "forked" -> false;
                    case "testcontainers" -> true;
                    case "auto" -> dockerAvailable();
                    default ->
                            throw new IllegalArgumentException(
                                    "cosid.zk.servers must be forked, testcontainers or auto, got "
                                            + mode);
                };
        return containers ? new ContainerServer(version) : ForkedEnsemble.standalone(version);
    }
}
