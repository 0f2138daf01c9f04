package io.cosid.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cosid.store.Range;
import io.cosid.store.SlotLease;
import io.cosid.store.SlotView;
import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.StoreTimeoutException;
import io.cosid.store.StoreUnavailableException;
import io.cosid.store.Stores;
import io.cosid.store.jdbc.harness.CuttingProxy;
import io.cosid.store.jdbc.harness.CuttingProxy.Cut;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * Connections cut in the middle of a write, on a real server through a TCP proxy: the write
 * delivered and its reply lost, or never delivered. The client cannot tell the two apart; the store
 * never hands out a value or a term twice: a range of unknown outcome is a gap, a lease write is
 * settled by reading back the nonce it carried (docs/contract.md, "Unknown outcomes"). One short
 * class per server ({@link PostgresCutConnectionTest}, {@link MariaDbCutConnectionTest}).
 */
abstract class CutConnectionContract {

    private static final Duration TTL = Duration.ofSeconds(30);
    private static final AtomicInteger SCHEMAS = new AtomicInteger();

    /** The server's port. */
    abstract int serverPort();

    /**
     * The URL of the class's database through a proxy on {@code port}, with every statement's text
     * on the wire (no server-side prepared statements).
     */
    abstract String urlThrough(int port);

    /** The text of the commit statement as the driver sends it. */
    abstract String commit();

    private CuttingProxy proxy;
    private final List<Store> opened = new ArrayList<>();
    private String schema;

    @BeforeEach
    void proxy() {
        proxy = new CuttingProxy(serverPort());
        schema = "cut" + SCHEMAS.incrementAndGet();
    }

    @AfterEach
    void close() {
        opened.forEach(Store::close);
        proxy.close();
    }

    /** A store whose connections go through the proxy. */
    private Store store() {
        String url = urlThrough(proxy.port());
        Store store =
                Stores.open(
                        StoreConfig.of("cut", JdbcStoreProvider.TYPE)
                                .withOption("url", url)
                                .withOption("schema", "create")
                                .withOption("tablePrefix", schema + "_"));
        opened.add(store);
        return store;
    }

    @Nested
    @DisplayName("ranges")
    class Ranges {

        @Test
        @DisplayName("an acquire whose reply was lost after it landed is a gap, never handed out")
        void replyLost() {
            Store store = store();
            assertThat(store.ranges().acquire("orders", 10)).isEqualTo(new Range("orders", 0, 10));
            proxy.cutNext(schema + "_ranges", Cut.AFTER_DELIVERY);
            assertThatThrownBy(() -> store.ranges().acquire("orders", 10))
                    .isInstanceOf(StoreUnavailableException.class);
            assertThat(proxy.fired()).isTrue();
            assertThat(store.ranges().acquire("orders", 10))
                    .as("[10, 20) landed unseen: skipped")
                    .isEqualTo(new Range("orders", 20, 30));
        }

        @Test
        @DisplayName("an acquire that never reached the server loses nothing")
        void neverDelivered() {
            Store store = store();
            store.ranges().acquire("orders", 10);
            proxy.cutNext(schema + "_ranges", Cut.BEFORE_DELIVERY);
            assertThatThrownBy(() -> store.ranges().acquire("orders", 10))
                    .isInstanceOf(StoreUnavailableException.class);
            assertThat(proxy.fired()).isTrue();
            assertThat(store.ranges().acquire("orders", 10)).isEqualTo(new Range("orders", 10, 20));
        }
    }

    @Nested
    @DisplayName("slot leases")
    class Leases {

        @Test
        @DisplayName(
                "an acquire whose commit landed unseen is the caller's: the row carries its nonce")
        void acquireCommitReplyLost() {
            Store store = store();
            store.slots().define("workers", 2, Duration.ZERO);
            proxy.cutNext(commit(), Cut.AFTER_DELIVERY);
            SlotLease lease = store.slots().acquire("workers", "a", TTL);
            assertThat(proxy.fired()).as("the commit's reply was dropped").isTrue();
            SlotView slot = store.slots().inspect("workers").slots().get(0);
            assertThat(slot.ownerKey()).isEqualTo("a");
            assertThat(slot.fence()).isEqualTo(lease.fence());
            assertThat(store.slots().renew(lease).fence()).isEqualTo(lease.fence());
        }

        @Test
        @DisplayName("an acquire whose commit never arrived is refused, and the slot stays free")
        void acquireCommitNeverDelivered() {
            Store store = store();
            store.slots().define("workers", 1, Duration.ZERO);
            proxy.cutNext(commit(), Cut.BEFORE_DELIVERY);
            assertThatThrownBy(() -> store.slots().acquire("workers", "a", TTL))
                    .isInstanceOf(StoreUnavailableException.class)
                    .hasMessageContaining("outcome is unknown");
            SlotLease next = store().slots().acquire("workers", "b", TTL);
            assertThat(next.slot()).isZero();
            assertThat(next.fence()).as("no term of 'a' ever landed").isEqualTo(1);
        }

        @Test
        @DisplayName("a release whose commit landed unseen returns its bound; the slot is free")
        void releaseCommitReplyLost() {
            Store store = store();
            store.slots().define("workers", 1, Duration.ZERO);
            SlotLease lease = store.slots().acquire("workers", "a", TTL);
            proxy.cutNext(commit(), Cut.AFTER_DELIVERY);
            assertThat(store.slots().release(lease, lease.floor())).isEqualTo(lease.floor());
            assertThat(proxy.fired()).isTrue();
            SlotLease next = store().slots().acquire("workers", "b", TTL);
            assertThat(next.fence()).isEqualTo(lease.fence() + 1);
            assertThat(next.floor()).isEqualTo(lease.floor());
        }

        @Test
        @DisplayName(
                "a renew whose commit is answered after the budget ends times out, and the term"
                        + " it may have renewed is still the caller's")
        void renewCommitReplyHeld() {
            Store store = store();
            store.slots().define("workers", 1, Duration.ZERO);
            SlotLease lease = store.slots().acquire("workers", "a", TTL);
            proxy.cutNext(commit(), Cut.REPLY_HELD);
            assertThatThrownBy(() -> store.slots().renew(lease))
                    .isInstanceOf(StoreTimeoutException.class)
                    .hasMessageContaining("renew");
            assertThat(proxy.fired()).as("the server answered the commit").isTrue();
            SlotLease renewed = store.slots().renew(lease);
            assertThat(renewed.fence()).isEqualTo(lease.fence());
            assertThat(renewed.expiresAt()).isAfterOrEqualTo(lease.expiresAt());
        }

        @Test
        @DisplayName("a renew whose commit never arrived is refused, and the term goes on")
        void renewCommitNeverDelivered() {
            Store store = store();
            store.slots().define("workers", 1, Duration.ZERO);
            SlotLease lease = store.slots().acquire("workers", "a", TTL);
            proxy.cutNext(commit(), Cut.BEFORE_DELIVERY);
            assertThatThrownBy(() -> store.slots().renew(lease))
                    .isInstanceOf(StoreUnavailableException.class);
            SlotLease renewed = store.slots().renew(lease);
            assertThat(renewed.fence()).isEqualTo(lease.fence());
            assertThat(renewed.expiresAt()).isAfterOrEqualTo(lease.expiresAt());
        }
    }
}
