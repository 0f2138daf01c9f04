package io.cosid.store.cosid;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosid.store.Store;
import io.cosid.store.zookeeper.harness.ZooKeeperServerExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import me.ahoo.cosid.segment.IdSegmentDistributorDefinition;
import me.ahoo.cosid.segment.SegmentChainId;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * CosId's {@code SegmentChainId} on cosid-store's ZooKeeper backend, against a real ZooKeeper
 * server: four stores, each its own session as four processes would have, generate from one key.
 */
@DisplayName("CosId segment IDs on a real ZooKeeper server")
class SegmentIdsOnZooKeeperTest {

    @RegisterExtension
    static final ZooKeeperServerExtension SERVER = ZooKeeperServerExtension.primary();

    private static final int STORES = 4;
    private static final int IDS = 1_000_000;

    private final Generating generating = new Generating();

    @AfterEach
    void close() {
        generating.close();
    }

    @Test
    @DisplayName(
            "SegmentChainId: 1,000,000 IDs from 4 sessions on one key, none twice, from offset + 1")
    void segmentChainIdAcrossSessions() throws Exception {
        String root = "/cosid-" + UUID.randomUUID();
        long offset = 5_000;
        List<Callable<long[]>> tasks = new ArrayList<>();
        for (int s = 0; s < STORES; s++) {
            Store store = generating.zooKeeper(SERVER.server().connectString(), root, "cosid-" + s);
            SegmentChainId ids =
                    new SegmentChainId(
                            new StoreIdSegmentDistributorFactory(store.ranges())
                                    .create(
                                            new IdSegmentDistributorDefinition(
                                                    "shop", "order", offset, 1_000)));
            tasks.add(Generating.take(IDS / STORES, ids::generate));
        }
        long[] all = generating.all(tasks);

        assertThat(all).hasSize(IDS);
        assertThat(all[0]).isEqualTo(offset + 1);
        Generating.assertNoneTwice(all);
    }
}
