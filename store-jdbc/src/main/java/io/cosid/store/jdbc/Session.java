package io.cosid.store.jdbc;

import io.cosid.store.StoreTimeoutException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * One operation's connection and time budget: every statement is prepared through {@link #prepare},
 * which first bounds how long the driver waits for the server's reply by the time the operation has
 * left, so that no statement outlives the store's timeout.
 */
final class Session {

    private final Connection connection;
    private final String operation;
    private final Duration timeout;
    private final long deadlineNanos;

    Session(Connection connection, String operation, Duration timeout, long deadlineNanos) {
        this.connection = connection;
        this.operation = operation;
        this.timeout = timeout;
        this.deadlineNanos = deadlineNanos;
    }

    /**
     * Prepares {@code sql} with the rest of the budget as the connection's network timeout.
     *
     * @throws StoreTimeoutException if no time is left
     */
    PreparedStatement prepare(String sql) throws SQLException {
        arm();
        return connection.prepareStatement(sql);
    }

    /**
     * Prepares {@code sql}, as {@link #prepare}, asking the driver for the keys the statement
     * generates (on MySQL, what {@code LAST_INSERT_ID(expr)} set).
     */
    PreparedStatement prepareReturningKeys(String sql) throws SQLException {
        arm();
        return connection.prepareStatement(sql, Statement.RETURN_GENERATED_KEYS);
    }

    /**
     * Bounds how long the driver waits for the server's next reply by the time the operation has
     * left.
     *
     * @throws StoreTimeoutException if no time is left
     */
    void arm() throws SQLException {
        long left = deadlineNanos - System.nanoTime();
        if (left <= 0) {
            throw expired(null);
        }
        connection.setNetworkTimeout(Runnable::run, (int) Math.max(1, left / 1_000_000));
    }

    /** Whether the operation's budget is spent. */
    boolean spent() {
        return deadlineNanos - System.nanoTime() <= 0;
    }

    /** The timeout of this operation, naming it and its budget. */
    StoreTimeoutException expired(@Nullable Throwable cause) {
        return new StoreTimeoutException(operation, timeout, cause);
    }

    Connection connection() {
        return connection;
    }
}
