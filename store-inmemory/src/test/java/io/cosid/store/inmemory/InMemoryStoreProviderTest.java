package io.cosid.store.inmemory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cosid.store.Range;
import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.StoreProvider;
import io.cosid.store.StoreTimeoutException;
import io.cosid.store.Stores;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("The in-memory provider")
class InMemoryStoreProviderTest {

    @Test
    @DisplayName("opens type in-memory from cosid.stores configuration")
    void opensFromConfig() {
        try (Store store =
                Stores.open(
                        "main",
                        Map.of(
                                "cosid.stores.main.type",
                                "in-memory",
                                "cosid.stores.main.timeout",
                                "1s"))) {
            assertThat(store.type()).isEqualTo("in-memory");
            assertThat(store.name()).isEqualTo("main");
            assertThat(store.ranges().acquire("k", 3)).isEqualTo(new Range("k", 0, 3));
        }
        assertThat(Stores.types()).contains("in-memory");
    }

    @Test
    @DisplayName("gives each store its own state unless option backend names a shared one")
    void sharedBackend() {
        StoreConfig shared =
                StoreConfig.of("a", "in-memory").withOption("backend", "provider-test");
        try (Store a = Stores.open(shared);
                Store b = Stores.open(shared);
                Store alone = Stores.open(StoreConfig.of("c", "in-memory"))) {
            a.ranges().acquire("k", 10);
            assertThat(b.ranges().acquire("k", 1).start()).isEqualTo(10);
            assertThat(alone.ranges().acquire("k", 1).start()).isZero();
        }
    }

    @Test
    @DisplayName(
            "is found by its type, and takes no application client: it always connects by itself")
    void noApplicationClient() {
        StoreProvider provider = Stores.provider("in-memory").orElseThrow();
        assertThat(provider).isInstanceOf(InMemoryStoreProvider.class);
        assertThat(Stores.provider("no-such-type")).isEmpty();
        assertThat(provider.applicationClientType()).isEmpty();
        assertThat(provider.connectsByItself(StoreConfig.of("a", "in-memory"))).isTrue();
        assertThatThrownBy(() -> provider.open(StoreConfig.of("a", "in-memory"), new Object()))
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessage("store type 'in-memory' opens no store on an application's client");
    }

    @Test
    @DisplayName("refuses unknown options, naming the key")
    void unknownOption() {
        assertThatThrownBy(
                        () ->
                                Stores.open(
                                        StoreConfig.of("a", "in-memory")
                                                .withOption("connectString", "x")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cosid.stores.a.options.connectString");
    }

    @Test
    @DisplayName(
            "ends an operation with StoreTimeoutException when the backend stays busy past the"
                    + " timeout")
    void timeout() throws Exception {
        InMemoryBackend backend = InMemoryStores.backend();
        Store store = backend.open("slow", Duration.ofMillis(50));
        CountDownLatch locked = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(1);
        CompletableFuture<Void> holder =
                CompletableFuture.runAsync(
                        () -> {
                            backend.lock.lock();
                            try {
                                locked.countDown();
                                done.await();
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            } finally {
                                backend.lock.unlock();
                            }
                        });
        locked.await();
        try {
            assertThatThrownBy(() -> store.ranges().acquire("k", 1))
                    .isInstanceOf(StoreTimeoutException.class)
                    .hasMessageContaining("acquire on range key 'k'")
                    .hasMessageContaining("timeout of 50ms");
        } finally {
            done.countDown();
            holder.get();
        }
        assertThat(store.ranges().acquire("k", 1).start()).isZero();
    }
}
