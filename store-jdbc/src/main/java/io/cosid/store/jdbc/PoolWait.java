package io.cosid.store.jdbc;

import java.time.Duration;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * How long a data source says it waits for a connection: HikariCP's, DBCP's and most pools' {@code
 * getConnectionTimeout()} in milliseconds, read by name so that this module needs none of them.
 */
final class PoolWait {

    private PoolWait() {}

    /**
     * The data source's connection timeout.
     *
     * @return the wait it promises, or null where it says nothing (or 0, no limit)
     */
    static @Nullable Duration of(DataSource dataSource) {
        try {
            Object value =
                    dataSource.getClass().getMethod("getConnectionTimeout").invoke(dataSource);
            return value instanceof Number n && n.longValue() > 0
                    ? Duration.ofMillis(n.longValue())
                    : null;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }
}
