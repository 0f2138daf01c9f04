package io.cosid.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Stores opens a configured store by type")
class StoresTest {

    @Test
    @DisplayName("finds providers with ServiceLoader and opens the one the type names")
    void opensByType() {
        Map<String, Object> settings =
                Map.of(
                        "cosid",
                        Map.of(
                                "stores",
                                Map.of(
                                        "main",
                                        Map.of(
                                                "type",
                                                "echo",
                                                "timeout",
                                                "250ms",
                                                "options",
                                                Map.of("color", "blue")))));
        try (Store store = Stores.open("main", settings)) {
            assertThat(store.name()).isEqualTo("main");
            assertThat(store.type()).isEqualTo("echo");
        }
        assertThat(EchoStoreProvider.lastOpened.options()).containsEntry("color", "blue");
        assertThat(EchoStoreProvider.lastOpened.timeout()).hasMillis(250);
        assertThat(Stores.types()).contains("echo");
    }

    @Test
    @DisplayName("hands the provider its option keys as it spells them, whatever their case")
    void optionKeysSpelledByProvider() {
        try (Store store = Stores.open(StoreConfig.of("main", "echo").withOption("COLOR", "red"))) {
            assertThat(store.type()).isEqualTo("echo");
        }
        assertThat(EchoStoreProvider.lastOpened.options())
                .containsExactly(Map.entry("color", "red"));
    }

    @Test
    @DisplayName("an unknown type fails fast, listing the available types")
    void unknownType() {
        assertThatThrownBy(() -> Stores.open(StoreConfig.of("main", "zookeeper")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown store type 'zookeeper'")
                .hasMessageContaining("store 'main'")
                .hasMessageContaining("[echo]");
    }

    @Test
    @DisplayName("an unknown option is refused by the provider, naming the full key")
    void unknownOption() {
        assertThatThrownBy(
                        () ->
                                Stores.open(
                                        StoreConfig.of("main", "echo").withOption("colour", "red")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cosid.stores.main.options.colour")
                .hasMessageContaining("[color]");
    }

    @Test
    @DisplayName("two providers of one type fail fast, naming both classes")
    void duplicateType() {
        StoreProvider first = new EchoStoreProvider();
        StoreProvider second = new EchoStoreProvider() {};
        assertThatThrownBy(() -> Stores.byType(List.of(first, second)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("'echo' is provided more than once")
                .hasMessageContaining(EchoStoreProvider.class.getName());
    }
}
