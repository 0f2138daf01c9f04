package io.cosid.store.jdbc;

import io.cosid.store.spi.StoreLog;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * The log of a JDBC store: spi's {@link StoreLog} written through SLF4J to logger {@value #LOGGER},
 * the logger the rest of this module writes to as well (docs/operations.md, "Logs"). The facade is
 * this backend's own, as store-api depends on no logging library.
 */
final class JdbcLog extends StoreLog {

    /** The logger every JDBC store writes its operations to. */
    static final String LOGGER = "io.cosid.store.jdbc";

    private final Logger log = LoggerFactory.getLogger(LOGGER);

    @Override
    protected boolean enabled(Severity severity) {
        return log.isEnabledForLevel(Level.valueOf(severity.name()));
    }

    @Override
    protected void write(Severity severity, String text, @Nullable Throwable failure) {
        log.atLevel(Level.valueOf(severity.name())).setCause(failure).log(text);
    }
}
