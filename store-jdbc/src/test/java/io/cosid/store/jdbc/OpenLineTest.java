package io.cosid.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.cosid.store.StoreConfig;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * What a JDBC store's open line shows of its options: where connections come from, never a password
 * (the line itself, as a user's tool prints it, is tested in store-cli's {@code LogLevelTest}).
 */
@DisplayName("A JDBC store's open line")
class OpenLineTest {

    @Test
    @DisplayName("shows the store's own pool with every password masked")
    void ownPool() {
        JdbcOptions options =
                JdbcOptions.of(
                        StoreConfig.of("main", JdbcStoreProvider.TYPE)
                                .withOption(
                                        "url",
                                        "jdbc:mysql://app:url-secret@db-1:3306/ids?password=p2")
                                .withOption("username", "app")
                                .withOption("password", "option-secret")
                                .withOption("tablePrefix", "ids_")
                                .withOption("tableSchema", "shop"));
        assertThat(options.describe(Dialect.MYSQL, null))
                .isEqualTo(
                        "url=jdbc:mysql://app:***@db-1:3306/ids?password=***, username=app,"
                                + " password=***, poolSize=4, dialect=mysql, schema=validate,"
                                + " tables=shop.ids_*, failover=refuse");
    }

    @Test
    @DisplayName("names the application's data source instead of a URL")
    void applicationsDataSource() {
        JdbcOptions options =
                JdbcOptions.of(
                        StoreConfig.of("main", JdbcStoreProvider.TYPE)
                                .withOption("schema", "create")
                                .withOption("failover", "accept"));
        assertThat(options.describe(Dialect.POSTGRESQL, "the application's com.example.Pool"))
                .isEqualTo(
                        "dataSource=the application's com.example.Pool, dialect=postgresql,"
                                + " schema=create, tables=cosid_*, failover=accept");
    }
}
