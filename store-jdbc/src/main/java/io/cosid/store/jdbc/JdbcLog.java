package io.cosid.store.jdbc;

import io.cosid.store.spi.StoreLog;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
    protected boolean enabled(Level level) {
        return log.isEnabledForLevel(org.slf4j.event.Level.valueOf(level.name()));
    }

    @Override
    protected void write(Level level, String text, @Nullable Throwable failure) {
        log.atLevel(org.slf4j.event.Level.valueOf(level.name())).setCause(failure).log(text);
    }
}
