package io.cosid.store.jdbc;

import io.cosid.store.jdbc.harness.PostgresExtension;
import io.cosid.store.tck.StoreCompatibilityKit;
import io.cosid.store.tck.StoreFixture;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.extension.RegisterExtension;

@DisplayName("PostgreSQL 14 (the oldest supported), a test clock: the contract")
class Postgres14StoreTest extends StoreCompatibilityKit {

    @RegisterExtension static final PostgresExtension SERVER = PostgresExtension.oldest();

    @Override
    protected StoreFixture createFixture() {
        return new JdbcFixture(SERVER.jdbcUrl(), true, Dialect.POSTGRESQL);
    }
}
