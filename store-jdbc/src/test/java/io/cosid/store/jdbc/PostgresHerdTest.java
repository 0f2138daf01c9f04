package io.cosid.store.jdbc;

import io.cosid.store.jdbc.harness.PostgresExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.extension.RegisterExtension;

@DisplayName("Many instances at once (PostgreSQL)")
class PostgresHerdTest extends HerdContract {

    @RegisterExtension static final PostgresExtension SERVER = PostgresExtension.newest();

    @Override
    String jdbcUrl() {
        return SERVER.jdbcUrl();
    }

    @Override
    int statementsPerSlotAcquire() {
        return 3;
    }
}
