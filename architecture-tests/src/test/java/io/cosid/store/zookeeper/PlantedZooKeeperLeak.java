package io.cosid.store.zookeeper;

import jakarta.inject.Provider;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.ZooKeeper;

/**
 * Planted violations of the public-signature rule, and one use the rule allows for the entry point.
 */
public class PlantedZooKeeperLeak {

    /** A raw handle in a public parameter: never allowed. */
    public void useHandle(ZooKeeper handle) {}

    /** An injection type inside a generic return type: never allowed. */
    public List<Provider<String>> providers() {
        return List.of();
    }

    /** A caller's client: allowed only when this class is the declared entry point. */
    public static PlantedZooKeeperLeak open(CuratorFramework client) {
        return new PlantedZooKeeperLeak();
    }

    /** Package-private members are implementation details and may use anything. */
    void internal(ZooKeeper handle) {}
}
