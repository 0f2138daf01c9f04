package io.cosid.store.jdbc;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.InstantSource;
import org.jspecify.annotations.Nullable;

/**
 * The store's "now": the database server's clock, read inside the statement that locks the rows an
 * operation decides on (docs/contract.md, "Terms and leases": now is the store's clock, never the
 * caller's). Every statement that reads the time splices in {@link Dialect#now()} and binds one
 * parameter: null for the server's clock, or a test clock's reading, so that tests can step the
 * store's clock back on a real server through the very same statements.
 */
final class StoreClock {

    private final @Nullable InstantSource testClock;

    private StoreClock(@Nullable InstantSource testClock) {
        this.testClock = testClock;
    }

    /** The database server's clock. */
    static StoreClock server() {
        return new StoreClock(null);
    }

    /** A clock tests set, read in the statements in place of the server's. */
    static StoreClock test(InstantSource clock) {
        return new StoreClock(clock);
    }

    /** Binds the parameter of {@link Dialect#now()} at {@code index}. */
    void bind(PreparedStatement statement, int index) throws SQLException {
        if (testClock == null) {
            statement.setNull(index, Types.BIGINT);
        } else {
            statement.setLong(index, testClock.millis());
        }
    }
}
