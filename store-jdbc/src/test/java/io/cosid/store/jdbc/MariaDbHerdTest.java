package io.cosid.store.jdbc;

import io.cosid.store.jdbc.harness.MariaDbExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.extension.RegisterExtension;

@DisplayName("Many instances at once (MariaDB)")
class MariaDbHerdTest extends HerdContract {

    @RegisterExtension static final MariaDbExtension SERVER = new MariaDbExtension();

    @Override
    String jdbcUrl() {
        return SERVER.jdbcUrl();
    }

    @Override
    int statementsPerSlotAcquire() {
        return 4;
    }
}
