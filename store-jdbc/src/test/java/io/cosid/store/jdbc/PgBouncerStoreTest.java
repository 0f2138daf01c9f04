package io.cosid.store.jdbc;

import io.cosid.store.jdbc.harness.PgBouncerExtension;
import io.cosid.store.jdbc.harness.PostgresExtension;
import io.cosid.store.tck.StoreCompatibilityKit;
import io.cosid.store.tck.StoreFixture;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.extension.RegisterExtension;

@DisplayName("PostgreSQL 18 behind PgBouncer in transaction mode, the server's clock: the contract")
class PgBouncerStoreTest extends StoreCompatibilityKit {

    @RegisterExtension
    @Order(1)
    static final PostgresExtension SERVER = PostgresExtension.newest();

    @RegisterExtension
    @Order(2)
    static final PgBouncerExtension BOUNCER = new PgBouncerExtension(SERVER);

    @Override
    protected StoreFixture createFixture() {
        return new JdbcFixture(BOUNCER.jdbcUrl(), false, Dialect.POSTGRESQL);
    }
}
