package io.cosid.store.zookeeper;

import io.cosid.store.tck.StoreCompatibilityKit;
import io.cosid.store.tck.StoreFixture;
import io.cosid.store.zookeeper.harness.ZooKeeperServerExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.extension.RegisterExtension;

@DisplayName("ZooKeeper 3.9 over TLS only: the contract")
class ZooKeeperTlsTest extends StoreCompatibilityKit {

    @RegisterExtension
    static final ZooKeeperServerExtension SERVER = ZooKeeperServerExtension.tls();

    @Override
    protected StoreFixture createFixture() {
        return new ZooKeeperFixture(
                SERVER.server(), ZooKeeperFixture.tlsOptions(SERVER.tlsMaterial()));
    }
}
