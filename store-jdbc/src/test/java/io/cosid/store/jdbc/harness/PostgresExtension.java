package io.cosid.store.jdbc.harness;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A PostgreSQL server for test classes ({@code @RegisterExtension static}): one server per version
 * for the whole run, started before the first class that asks for it and stopped when the run ends;
 * each class gets a database of its own.
 */
public final class PostgresExtension implements BeforeAllCallback {

    private static final Map<String, PostgresServer> SERVERS = new ConcurrentHashMap<>();

    private final String version;
    private @Nullable PostgresServer server;
    private @Nullable String database;

    private PostgresExtension(String version) {
        this.version = version;
    }

    /**
     * The newest version the build provides.
     *
     * @return the extension
     */
    public static PostgresExtension newest() {
        return new PostgresExtension(System.getProperty("cosid.pg.version", "18.7.0"));
    }

    /**
     * The oldest version the build provides.
     *
     * @return the extension
     */
    public static PostgresExtension oldest() {
        return new PostgresExtension(System.getProperty("cosid.pg.oldest", "14.25.0"));
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        if (server != null) {
            return; // a nested class of the one that started it
        }
        server =
                SERVERS.computeIfAbsent(
                        version,
                        v -> {
                            PostgresServer started = PostgresServer.start(v);
                            context.getRoot()
                                    .getStore(ExtensionContext.Namespace.GLOBAL)
                                    .put(
                                            "postgres-" + v,
                                            (AutoCloseable)
                                                    () -> {
                                                        SERVERS.remove(v);
                                                        started.close();
                                                    });
                            return started;
                        });
        database = server.createDatabase();
    }

    /**
     * The running server.
     *
     * @return the server
     */
    public PostgresServer server() {
        return Objects.requireNonNull(server, "the server starts before the class's first test");
    }

    /**
     * The name of the class's database.
     *
     * @return the name
     */
    public String database() {
        return Objects.requireNonNull(database, "created with the server");
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
