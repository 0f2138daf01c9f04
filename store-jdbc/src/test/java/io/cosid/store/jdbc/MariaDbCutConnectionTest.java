package io.cosid.store.jdbc;

import io.cosid.store.jdbc.harness.MariaDbExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.extension.RegisterExtension;

@DisplayName("A connection cut mid-write (MariaDB through a cutting proxy)")
class MariaDbCutConnectionTest extends CutConnectionContract {

    @RegisterExtension static final MariaDbExtension SERVER = new MariaDbExtension();

    @Override
    int serverPort() {
        return SERVER.server().port();
    }

    @Override
    String urlThrough(int port) {
        return "jdbc:mysql://127.0.0.1:"
                + port
                + "/"
                + SERVER.jdbcUrl().replaceAll(".*/([^/?]+)\\?.*", "$1")
                + "?user=root&sslMode=DISABLED";
    }

    @Override
    String commit() {
        return "COMMIT"; // Connector/J 9 sends it so; its "SET autocommit=..." differs in case
    }
}
