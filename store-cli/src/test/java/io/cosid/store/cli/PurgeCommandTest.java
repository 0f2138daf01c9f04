package io.cosid.store.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosid.store.SlotLease;
import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.zookeeper.ZooKeeperStores;
import io.cosid.store.zookeeper.harness.ZooKeeperServerExtension;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

@DisplayName("cosid-store purge")
class PurgeCommandTest {

    @RegisterExtension
    static final ZooKeeperServerExtension SERVER = ZooKeeperServerExtension.primary();

    @Test
    @DisplayName(
            "needs the confirmation, refuses while leases are held (listing holders), then deletes"
                    + " the store")
    void purge() {
        String root = "/purge-" + UUID.randomUUID().toString().substring(0, 8);
        String[] where = {"--connect", SERVER.server().connectString(), "--root", root};
        try (Store store =
                ZooKeeperStores.open(
                        StoreConfig.of("p", "zookeeper")
                                .withOption("connectString", SERVER.server().connectString())
                                .withOption("root", root))) {
            store.ranges().acquire("orders", 10);
            store.slots().define("workers", 2, Duration.ZERO);
            SlotLease lease = store.slots().acquire("workers", "host-1", Duration.ofMinutes(5));

            Cli.Result unconfirmed = Cli.run(concat(new String[] {"purge"}, where));
            assertThat(unconfirmed.code()).isEqualTo(3);
            assertThat(unconfirmed.err()).contains("--confirm-all-instances-stopped");

            Cli.Result held =
                    Cli.run(
                            concat(
                                    new String[] {"purge", "--confirm-all-instances-stopped"},
                                    where));
            assertThat(held.code()).isEqualTo(3);
            assertThat(held.err())
                    .contains("workers slot 0 held by 'host-1'")
                    .contains("Nothing was deleted");
            assertThat(store.ranges().peek("orders")).isPresent();

            store.slots().release(lease);
            Cli.Result done =
                    Cli.run(
                            concat(
                                    new String[] {"purge", "--confirm-all-instances-stopped"},
                                    where));
            assertThat(done.code()).as(done.toString()).isZero();
            assertThat(done.out())
                    .contains(
                            "purged root "
                                    + root
                                    + " on "
                                    + SERVER.server().connectString()
                                    + ": 1 range key(s), 1 namespace(s)");
        }
        try (Store fresh =
                ZooKeeperStores.open(
                        StoreConfig.of("p", "zookeeper")
                                .withOption("connectString", SERVER.server().connectString())
                                .withOption("root", root))) {
            assertThat(fresh.ranges().list()).isEmpty();
            assertThat(fresh.slots().namespaces()).isEmpty();
        }
    }

    private static String[] concat(String[] a, String[] b) {
        String[] all = new String[a.length + b.length];
        System.arraycopy(a, 0, all, 0, a.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
