package io.cosid.store.zookeeper;

import io.cosid.store.tck.BadInputContract;
import io.cosid.store.tck.StoreFixture;
import io.cosid.store.zookeeper.harness.ZooKeeperServerExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.extension.RegisterExtension;

@DisplayName("ZooKeeper 3.9: bad input and corrupt state")
class ZooKeeper39BadInputTest extends BadInputContract {

    @RegisterExtension
    static final ZooKeeperServerExtension SERVER = ZooKeeperServerExtension.primary();

    @Override
    protected StoreFixture createFixture() {
        return new ZooKeeperFixture(SERVER.server());
    }
}
