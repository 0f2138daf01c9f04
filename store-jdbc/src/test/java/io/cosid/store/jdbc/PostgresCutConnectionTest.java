package io.cosid.store.jdbc;

import io.cosid.store.jdbc.harness.PostgresExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.extension.RegisterExtension;

@DisplayName("A connection cut mid-write (PostgreSQL through a cutting proxy)")
class PostgresCutConnectionTest extends CutConnectionContract {

    @RegisterExtension static final PostgresExtension SERVER = PostgresExtension.newest();

    @Override
    int serverPort() {
        return SERVER.server().port();
    }

    @Override
    String urlThrough(int port) {
        return "jdbc:postgresql://127.0.0.1:"
                + port
                + "/"
                + SERVER.jdbcUrl().replaceAll(".*/([^/?]+)\\?.*", "$1")
                + "?user=postgres&prepareThreshold=0";
    }

    @Override
    String commit() {
        return "COMMIT";
    }
}
