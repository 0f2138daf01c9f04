package io.cosid.store.jdbc;

import io.cosid.store.StoreConfig;
import io.cosid.store.spi.Deadline;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * Borrows a connection within an operation's budget from any data source. An application's pool
 * waits by its own settings (HikariCP's {@code connectionTimeout} is 30 s by default, and it checks
 * a connection with the server before lending it, which a hung server never answers): unless it
 * promises to wait no longer than the store's timeout ({@link PoolWait}), its {@code getConnection}
 * runs on a thread of this store's while the caller waits at most the budget, and a connection that
 * comes too late goes back to its pool. That hand-off costs a thread switch each way per operation
 * (docs/performance.md), which a pool whose connection timeout is at most the store's avoids: it is
 * called directly, as is the store's own pool.
 */
final class BoundedBorrow implements AutoCloseable {

    private final DataSource dataSource;
    private final @Nullable ExecutorService borrowing;

    BoundedBorrow(DataSource dataSource, String storeName, Duration timeout) {
        this.dataSource = dataSource;
        this.borrowing =
                boundedByItself(dataSource, timeout)
                        ? null
                        : Executors.newCachedThreadPool(
                                r -> {
                                    Thread t =
                                            new Thread(r, "cosid-store-jdbc-borrow-" + storeName);
                                    t.setDaemon(true);
                                    return t;
                                });
    }

    /** Whether {@code dataSource} waits at most {@code timeout} for a connection by itself. */
    static boolean boundedByItself(DataSource dataSource, Duration timeout) {
        if (dataSource instanceof ConnectionPool) {
            return true;
        }
        Duration wait = PoolWait.of(dataSource);
        return wait != null && wait.compareTo(timeout) <= 0;
    }

    /**
     * A connection, or a failure once {@code deadline} passed.
     *
     * @throws SQLTransientConnectionException if none came within the budget
     */
    Connection borrow(Deadline deadline) throws SQLException {
        ExecutorService threads = borrowing;
        if (threads == null) {
            return dataSource.getConnection();
        }
        CompletableFuture<Connection> borrowed =
                CompletableFuture.supplyAsync(
                        () -> {
                            try {
                                return dataSource.getConnection();
                            } catch (SQLException e) {
                                throw new CompletionException(e);
                            }
                        },
                        threads);
        try {
            return borrowed.get(deadline.remainingNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            var unused = borrowed.thenAccept(BoundedBorrow::giveBack);
            throw new SQLTransientConnectionException(
                    "the data source lent no connection within the store's timeout of "
                            + StoreConfig.formatDuration(deadline.timeout())
                            + " (a pool waits by its own connection timeout: keep it no longer"
                            + " than the store's)",
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            var unused = borrowed.thenAccept(BoundedBorrow::giveBack);
            throw new SQLTransientConnectionException("interrupted waiting for a connection", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof CompletionException c && c.getCause() != null) {
                cause = c.getCause();
            }
            if (cause instanceof SQLException sql) {
                throw sql;
            }
            throw new SQLException("the data source failed: " + cause, cause);
        }
    }

    private static void giveBack(Connection c) {
        try {
            c.close();
        } catch (SQLException e) {
            // it came too late; its pool drops it if it is broken
        }
    }

    /** Ends the borrowing threads; a borrow under way still gives its connection back. */
    @Override
    public void close() {
        if (borrowing != null) {
            borrowing.shutdown();
        }
    }
}
