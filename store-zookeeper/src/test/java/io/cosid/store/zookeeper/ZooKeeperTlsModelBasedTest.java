package io.cosid.store.zookeeper;

import io.cosid.store.tck.ModelBasedContract;
import io.cosid.store.tck.StoreFixture;
import io.cosid.store.zookeeper.harness.ForkedEnsemble;
import io.cosid.store.zookeeper.harness.ZooKeeperServerExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.extension.RegisterExtension;

@DisplayName("ZooKeeper 3.9 over TLS only: ModelBasedContract")
class ZooKeeperTlsModelBasedTest extends ModelBasedContract {

    @RegisterExtension
    static final ZooKeeperServerExtension SERVER = ZooKeeperServerExtension.tls();

    @Override
    protected StoreFixture createFixture() {
        return new ZooKeeperFixture(SERVER.server(),
                ZooKeeperFixture.tlsOptions(((ForkedEnsemble) SERVER.server()).tls()));
    }
}
