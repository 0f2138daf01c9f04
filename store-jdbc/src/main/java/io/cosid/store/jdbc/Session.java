package io.cosid.store.jdbc;

import io.cosid.store.StoreTimeoutException;
import io.cosid.store.spi.Deadline;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * One operation's connection and time budget: every statement is prepared through {@link #prepare},
 * which first bounds how long the driver waits for the server's reply by the time the operation has
 * left, so that no statement outlives the store's timeout.
 */
final class Session {

    private final Connection connection;
    private final Deadline deadline;

    Session(Connection connection, Deadline deadline) {
        this.connection = connection;
        this.deadline = deadline;
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
        long left = deadline.remainingNanos();
        if (left <= 0) {
            throw deadline.expired(null);
        }
        connection.setNetworkTimeout(Runnable::run, (int) Math.max(1, left / 1_000_000));
    }

    /** The operation's budget. */
    Deadline deadline() {
        return deadline;
    }

    Connection connection() {
        return connection;
    }
}
