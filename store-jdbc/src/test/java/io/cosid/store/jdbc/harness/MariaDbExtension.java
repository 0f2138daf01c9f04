package io.cosid.store.jdbc.harness;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A MariaDB server for test classes ({@code @RegisterExtension static}): one for the whole run,
 * started before the first class that asks for it and stopped when the run ends; each class gets a
 * database of its own. Skipped visibly where MariaDB's packages are not installed ({@code .ci/run}
 * installs them).
 */
public final class MariaDbExtension implements BeforeAllCallback {

    private static final AtomicReference<@Nullable MariaDbServer> SERVER = new AtomicReference<>();

    private @Nullable String database;

    @Override
    public void beforeAll(ExtensionContext context) {
        MariaDbServer.assumeInstalled();
        if (database != null) {
            return; // a nested class of the one that started it
        }
        synchronized (SERVER) {
            if (SERVER.get() == null) {
                MariaDbServer started = MariaDbServer.start();
                SERVER.set(started);
                context.getRoot()
                        .getStore(ExtensionContext.Namespace.GLOBAL)
                        .put(
                                "mariadb",
                                (AutoCloseable)
                                        () -> {
                                            SERVER.set(null);
                                            started.close();
                                        });
            }
        }
        database = server().createDatabase();
    }

    /**
     * The running server.
     *
     * @return the server
     */
    public MariaDbServer server() {
        return Objects.requireNonNull(SERVER.get(), "the server starts before the first test");
    }

    /**
     * The JDBC URL of the class's database.
     *
     * @return the URL
     */
    public String jdbcUrl() {
        return server().jdbcUrl(Objects.requireNonNull(database, "created with the server"));
    }
}
