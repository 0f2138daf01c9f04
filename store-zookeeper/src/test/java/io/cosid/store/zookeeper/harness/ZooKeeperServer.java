package io.cosid.store.zookeeper.harness;

/** A running ZooKeeper server or ensemble that tests connect to. */
public interface ZooKeeperServer extends AutoCloseable {

    /**
     * The connect string of every member.
     *
     * @return host:port[,host:port...]
     */
    String connectString();

    /**
     * The server's version, e.g. 3.9.5.
     *
     * @return the version
     */
    String version();

    /** Stops every process and removes every file the server used. */
    @Override
    void close();
}
