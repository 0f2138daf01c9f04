package io.cosid.store.zookeeper;

import io.cosid.store.tck.SlotLeaseStoreContract;
import io.cosid.store.tck.StoreFixture;
import io.cosid.store.zookeeper.harness.ZooKeeperServerExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.extension.RegisterExtension;

@DisplayName("ZooKeeper 3.8: SlotLeaseStoreContract")
class ZooKeeper38SlotLeaseStoreTest extends SlotLeaseStoreContract {

    @RegisterExtension
    static final ZooKeeperServerExtension SERVER = ZooKeeperServerExtension.legacy();

    @Override
    protected StoreFixture createFixture() {
        return new ZooKeeperFixture(SERVER.server());
    }
}
