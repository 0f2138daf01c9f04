package io.cosid.store.zookeeper.harness;

import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.DockerImageName;

/** A standalone ZooKeeper in a container, for machines with a Docker engine. */
final class ContainerServer implements ZooKeeperServer {

    private final String version;
    private final GenericContainer<?> container;

    ContainerServer(String version) {
        this.version = version;
        String line = version.substring(0, version.lastIndexOf('.'));
        this.container =
                new GenericContainer<>(DockerImageName.parse("zookeeper:" + line))
                        .withExposedPorts(2181)
                        .withEnv("ZOO_4LW_COMMANDS_WHITELIST", "srvr,ruok,mntr,stat")
                        .waitingFor(Wait.forListeningPort());
        container.start();
    }

    @Override
    public String connectString() {
        return container.getHost() + ":" + container.getMappedPort(2181);
    }

    @Override
    public String version() {
        return version;
    }

    @Override
    public void close() {
        container.stop();
    }

    @Override
    public String toString() {
        return "ZooKeeper " + version + " container at " + connectString();
    }
}
