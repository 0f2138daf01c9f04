package io.cosid.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cosid.store.StoreConfig;
import io.cosid.store.StoreProvider;
import io.cosid.store.Stores;
import javax.sql.DataSource;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** What the JDBC provider tells an application container (the Spring Boot starter). */
@DisplayName("The JDBC provider")
class JdbcStoreProviderTest {

    private final StoreProvider provider = Stores.provider(JdbcStoreProvider.TYPE).orElseThrow();

    @Test
    @DisplayName("opens on the application's DataSource unless its options name a url")
    void applicationDataSource() {
        assertThat(provider.applicationClientType()).contains(DataSource.class);
        StoreConfig config = StoreConfig.of("main", JdbcStoreProvider.TYPE);
        assertThat(provider.connectsByItself(config)).isFalse();
        assertThat(provider.connectsByItself(config.withOption("tablePrefix", "ids_"))).isFalse();
        assertThat(provider.connectsByItself(config.withOption("url", "jdbc:postgresql://h/db")))
                .isTrue();
    }

    @Test
    @DisplayName("refuses a client that is not a DataSource, naming its class")
    void wrongClient() {
        assertThatThrownBy(
                        () ->
                                provider.open(
                                        StoreConfig.of("main", JdbcStoreProvider.TYPE), "a string"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a JDBC store opens on a DataSource, not on java.lang.String");
    }
}
