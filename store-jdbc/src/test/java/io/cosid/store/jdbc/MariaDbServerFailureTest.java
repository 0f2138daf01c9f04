package io.cosid.store.jdbc;

import io.cosid.store.jdbc.harness.FaultableServer;
import io.cosid.store.jdbc.harness.MariaDbServer;
import org.junit.jupiter.api.DisplayName;

@DisplayName("A paused, crashed or locked server (MariaDB)")
class MariaDbServerFailureTest extends ServerFailureContract {

    @Override
    FaultableServer startServer() {
        MariaDbServer.assumeInstalled();
        return MariaDbServer.start();
    }
}
