package io.cosid.store.jdbc;

import io.cosid.store.jdbc.harness.FaultableServer;
import io.cosid.store.jdbc.harness.PostgresServer;
import org.junit.jupiter.api.DisplayName;

@DisplayName("A paused, crashed or locked server (PostgreSQL)")
class PostgresServerFailureTest extends ServerFailureContract {

    @Override
    FaultableServer startServer() {
        return PostgresServer.start(System.getProperty("cosid.pg.version"));
    }
}
