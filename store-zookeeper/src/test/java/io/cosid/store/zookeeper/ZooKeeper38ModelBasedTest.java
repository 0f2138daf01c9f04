package io.cosid.store.zookeeper;

import io.cosid.store.tck.ModelBasedContract;
import io.cosid.store.tck.StoreFixture;
import io.cosid.store.zookeeper.harness.ZooKeeperServerExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.extension.RegisterExtension;

@DisplayName("ZooKeeper 3.8: ModelBasedContract")
class ZooKeeper38ModelBasedTest extends ModelBasedContract {

    @RegisterExtension
    static final ZooKeeperServerExtension SERVER = ZooKeeperServerExtension.legacy();

    @Override
    protected StoreFixture createFixture() {
        return new ZooKeeperFixture(SERVER.server());
    }
}
