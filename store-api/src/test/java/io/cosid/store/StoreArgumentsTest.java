package io.cosid.store;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("StoreArguments: messages for names that break their rule")
class StoreArgumentsTest {

    @Test
    @DisplayName("an owner key with '/' names the argument and the rule in plain words")
    void ownerKeyWithSlash() {
        assertThatThrownBy(() -> StoreArguments.requireOwnerKey("pod/7"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("ownerKey 'pod/7' is invalid: it contains '/'")
                .hasMessageContaining("; each ownerKey is one segment: ")
                .hasMessageNotContaining("a ownerKey");
    }

    @Test
    @DisplayName("a namespace with '/' is refused the same way")
    void namespaceWithSlash() {
        assertThatThrownBy(() -> StoreArguments.requireNamespace("shop/eu"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("namespace 'shop/eu' is invalid: it contains '/'")
                .hasMessageContaining("; each namespace is one segment: ");
    }
}
