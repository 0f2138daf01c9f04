package io.cosid.store.jdbc;

import io.cosid.store.StoreUnavailableException;
import io.cosid.store.Ticker;
import io.cosid.store.spi.Deadline;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.Optional;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * Runs each operation of a JDBC store on a connection of its own, never the caller's transaction:
 * in autocommit (one statement is one transaction) or as one transaction it commits itself, within
 * the store's timeout, waiting for a connection included ({@link BoundedBorrow}), turning the
 * driver's failures into the store's exceptions. A commit whose reply never came is an {@link
 * UnknownOutcome}: the transaction may or may not have landed.
 */
final class JdbcCalls {

    /** A store operation's work on its session. */
    @FunctionalInterface
    interface Work<T> {
        T run(Session session) throws SQLException;
    }

    /**
     * A commit sent whose outcome is unknown: the connection failed before its reply came, so the
     * transaction may have landed. Thrown to the operation, which settles it or reports it.
     */
    static final class UnknownOutcome extends RuntimeException {
        private static final long serialVersionUID = 1L;

        private final transient Session session;

        UnknownOutcome(Session session, SQLException cause) {
            super(cause.getMessage(), cause);
            this.session = session;
        }

        /** The session the commit was sent on, for its deadline. */
        Session session() {
            return session;
        }
    }

    private final BoundedBorrow connections;
    private final String storeName;
    private final Duration timeout;
    private final Ticker ticker;
    private volatile boolean closed;
    private volatile @Nullable DatabaseIdentity identity;

    JdbcCalls(DataSource dataSource, String storeName, Duration timeout) {
        this.connections = new BoundedBorrow(dataSource, storeName, timeout);
        this.storeName = storeName;
        this.timeout = timeout;
        this.ticker = Ticker.system();
    }

    /** Runs {@code work} in autocommit: each statement lands on its own. */
    <T> T autocommit(String operation, Work<T> work) {
        return run(true, deadline(operation), work);
    }

    /** Runs {@code work} as one transaction, committed when it returns, rolled back otherwise. */
    <T> T transaction(String operation, Work<T> work) {
        return run(false, deadline(operation), work);
    }

    /**
     * Runs {@code work} as one transaction within {@code deadline} (an operation that may take
     * several transactions spends one budget).
     */
    <T> T transaction(Deadline deadline, Work<T> work) {
        return run(false, deadline, work);
    }

    /** Runs {@code work} in autocommit within {@code deadline}. */
    <T> T autocommit(Deadline deadline, Work<T> work) {
        return run(true, deadline, work);
    }

    /** The budget of {@code operation}, the store's timeout, starting now. */
    Deadline deadline(String operation) {
        return Deadline.start(operation, timeout, ticker);
    }

    /** Checks every physical connection against {@code identity} before its first use. */
    void watch(DatabaseIdentity identity) {
        this.identity = identity;
    }

    /** The identity every connection is checked against, once it is known. */
    Optional<DatabaseIdentity> identity() {
        return Optional.ofNullable(identity);
    }

    /** The store's timeout. */
    Duration timeout() {
        return timeout;
    }

    /** Refuses every later call. */
    void close() {
        closed = true;
        connections.close();
    }

    private <T> T run(boolean autocommit, Deadline deadline, Work<T> work) {
        if (closed) {
            throw new IllegalStateException(
                    "store '" + storeName + "' is closed; cannot " + deadline.operation());
        }
        deadline.check();
        Connection c;
        try {
            c = connections.borrow(deadline);
        } catch (SQLException e) {
            throw failed(deadline, e);
        }
        Session session = new Session(c, deadline);
        boolean done = false;
        try {
            // the identity read and the autocommit switch are round trips too, when they happen
            DatabaseIdentity watched = identity;
            if (watched != null && !watched.checked(c)) {
                session.arm();
                watched.check(c);
            }
            if (c.getAutoCommit() != autocommit) {
                session.arm();
                c.setAutoCommit(autocommit);
            }
            T result = work.run(session);
            if (!autocommit) {
                commit(session);
            }
            done = true;
            return result;
        } catch (SQLException e) {
            throw failed(deadline, e);
        } finally {
            if (!done && !autocommit) {
                rollback(c);
            }
            close(c);
        }
    }

    private static void commit(Session session) {
        try {
            session.connection().commit();
        } catch (SQLException e) {
            throw new UnknownOutcome(session, e);
        }
    }

    private static void close(Connection c) {
        try {
            c.close();
        } catch (SQLException e) {
            // nothing is left to do with it: a pool drops a broken connection
        }
    }

    private static void rollback(Connection c) {
        try {
            c.rollback();
        } catch (SQLException e) {
            // the connection is broken: the server rolls the transaction back when it notices
        }
    }

    /** A failure of the driver: a timeout once the budget is spent, else the store unavailable. */
    static RuntimeException failed(Deadline deadline, SQLException e) {
        if (!deadline.hasTimeLeft() || e instanceof SQLTransientConnectionException) {
            return deadline.expired(e);
        }
        return unavailable(e);
    }

    static StoreUnavailableException unavailable(@Nullable SQLException e) {
        return new StoreUnavailableException(
                "jdbc",
                e == null
                        ? "no connection"
                        : e.getMessage() + " (SQLState " + e.getSQLState() + ")" + rootCause(e),
                e);
    }

    /**
     * What the driver's message leaves out: the innermost cause that is not a SQL failure (an
     * unknown host, a refused connection), as {@code ": java.net.UnknownHostException: db-1"}.
     */
    private static String rootCause(SQLException e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root == e || root instanceof SQLException ? "" : ": " + root;
    }
}
