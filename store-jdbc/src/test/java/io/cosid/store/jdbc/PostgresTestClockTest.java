package io.cosid.store.jdbc;

import io.cosid.store.jdbc.harness.PostgresExtension;
import io.cosid.store.tck.StoreCompatibilityKit;
import io.cosid.store.tck.StoreFixture;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.extension.RegisterExtension;

@DisplayName("PostgreSQL 18, a test clock stepped by hand in the same statements: the contract")
class PostgresTestClockTest extends StoreCompatibilityKit {

    @RegisterExtension static final PostgresExtension SERVER = PostgresExtension.newest();

    @Override
    protected StoreFixture createFixture() {
        return new JdbcFixture(SERVER.jdbcUrl(), true, Dialect.POSTGRESQL);
    }
}
