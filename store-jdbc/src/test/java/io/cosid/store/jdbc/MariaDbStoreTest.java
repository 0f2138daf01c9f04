package io.cosid.store.jdbc;

import io.cosid.store.jdbc.harness.MariaDbExtension;
import io.cosid.store.tck.StoreCompatibilityKit;
import io.cosid.store.tck.StoreFixture;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.extension.RegisterExtension;

@DisplayName("MariaDB 10.11 (the mysql dialect), a test clock: the contract")
class MariaDbStoreTest extends StoreCompatibilityKit {

    @RegisterExtension static final MariaDbExtension SERVER = new MariaDbExtension();

    @Override
    protected StoreFixture createFixture() {
        return new JdbcFixture(SERVER.jdbcUrl(), true, Dialect.MYSQL);
    }
}
