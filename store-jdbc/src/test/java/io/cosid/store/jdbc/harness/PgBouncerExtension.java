package io.cosid.store.jdbc.harness;

import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A {@link PgBouncer} in transaction mode before the database of a {@link PostgresExtension}
 * (registered before this one), for one test class, stopped after it. Skipped visibly where
 * PgBouncer is not installed ({@code .ci/run} installs it).
 */
public final class PgBouncerExtension implements BeforeAllCallback {

    private final PostgresExtension postgres;
    private @Nullable PgBouncer bouncer;

    /**
     * @param postgres the server's extension, registered (and so started) first
     */
    public PgBouncerExtension(PostgresExtension postgres) {
        this.postgres = postgres;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        Assumptions.assumeTrue(
                PgBouncer.installed(),
                "PgBouncer is not installed (Debian package pgbouncer; .ci/run installs it)");
        if (bouncer != null) {
            return; // a nested class of the one that started it
        }
        PgBouncer started = PgBouncer.start(postgres.server(), postgres.database(), 4);
        bouncer = started;
        context.getStore(ExtensionContext.Namespace.GLOBAL)
                .put(
                        "pgbouncer",
                        (AutoCloseable)
                                () -> {
                                    bouncer = null;
                                    started.close();
                                });
    }

    /**
     * The JDBC URL of the database through PgBouncer.
     *
     * @return the URL
     */
    public String jdbcUrl() {
        return Objects.requireNonNull(bouncer, "started before the class's first test").jdbcUrl();
    }
}
