package io.cosid.store.jdbc;

import java.io.PrintWriter;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * The small pool a store builds from options {@code url}, {@code username} and {@code password}
 * when the application gives it no data source: at most {@code size} connections, idle ones kept
 * for the next operation, a broken one (closed by the driver after an I/O error or a timeout)
 * dropped. A caller waits at most the store's timeout for a connection. Applications with a pool of
 * their own (HikariCP, Spring Boot's) pass it instead ({@link JdbcStores#open}).
 */
final class ConnectionPool implements DataSource, AutoCloseable {

    /** Threads that open connections, so that a caller can stop waiting for one. */
    private static final Executor CONNECTING =
            Executors.newCachedThreadPool(
                    r -> {
                        Thread t = new Thread(r, "cosid-store-jdbc-connect");
                        t.setDaemon(true);
                        return t;
                    });

    private final String url;
    private final Properties credentials;
    private final Semaphore permits;
    private final Duration wait;
    private final Deque<Connection> idle = new ArrayDeque<>();
    private volatile boolean closed;

    ConnectionPool(String url, Properties credentials, int size, Duration wait) {
        this.url = url;
        this.credentials = credentials;
        this.permits = new Semaphore(size, true);
        this.wait = wait;
    }

    @Override
    public Connection getConnection() throws SQLException {
        try {
            if (!permits.tryAcquire(wait.toNanos(), TimeUnit.NANOSECONDS)) {
                throw new SQLTransientConnectionException(
                        "no pooled connection came free within " + wait);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLTransientConnectionException("interrupted waiting for a connection", e);
        }
        try {
            Connection real = takeIdle();
            if (real == null) {
                real = connect();
            }
            return lend(real);
        } catch (SQLException | RuntimeException e) {
            permits.release();
            throw e;
        }
    }

    /**
     * A new connection within the wait: drivers bound a connection's handshake with options of
     * their own (or not at all), and a server that accepts the socket but answers nothing would
     * hold the caller forever. A connection that comes too late is closed.
     */
    private Connection connect() throws SQLException {
        CompletableFuture<Connection> connecting =
                CompletableFuture.supplyAsync(
                        () -> {
                            try {
                                return DriverManager.getConnection(url, credentials);
                            } catch (SQLException e) {
                                throw new CompletionException(e);
                            }
                        },
                        CONNECTING);
        try {
            return connecting.get(wait.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            var unused = connecting.thenAccept(ConnectionPool::closeQuietly);
            throw new SQLTransientConnectionException(
                    "the server did not complete a new connection within " + wait, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            var unused = connecting.thenAccept(ConnectionPool::closeQuietly);
            throw new SQLTransientConnectionException("interrupted connecting", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof CompletionException c
                    && c.getCause() instanceof SQLException sql) {
                throw sql;
            }
            if (e.getCause() instanceof SQLException sql) {
                throw sql;
            }
            throw new SQLException("cannot connect: " + e.getCause(), e.getCause());
        }
    }

    private static void closeQuietly(Connection c) {
        try {
            c.close();
        } catch (SQLException e) {
            // it came too late; nothing else to do
        }
    }

    private synchronized @Nullable Connection takeIdle() {
        return idle.pollFirst();
    }

    /** A handle whose close gives the connection back (or drops it when broken). */
    private Connection lend(Connection real) {
        InvocationHandler handler =
                new InvocationHandler() {
                    private boolean returned;

                    @Override
                    public @Nullable Object invoke(
                            Object proxy, Method method, @Nullable Object[] args) throws Throwable {
                        if (method.getName().equals("close") && method.getParameterCount() == 0) {
                            if (!returned) {
                                returned = true;
                                giveBack(real);
                            }
                            return null;
                        }
                        if (returned) {
                            if (method.getName().equals("isClosed")
                                    && method.getParameterCount() == 0) {
                                return true;
                            }
                            // the connection is another operation's now
                            throw new SQLException(
                                    "this connection handle was closed: " + method.getName());
                        }
                        try {
                            return method.invoke(real, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    }
                };
        return (Connection)
                Proxy.newProxyInstance(
                        Connection.class.getClassLoader(),
                        new Class<?>[] {Connection.class},
                        handler);
    }

    private void giveBack(Connection real) {
        try {
            boolean keep = !closed && !real.isClosed();
            synchronized (this) {
                if (keep) {
                    idle.addFirst(real);
                }
            }
            if (!keep) {
                real.close();
            }
        } catch (SQLException e) {
            // a connection that cannot say whether it is closed is dropped
        } finally {
            permits.release();
        }
    }

    @Override
    public void close() {
        closed = true;
        Connection c;
        while ((c = takeIdle()) != null) {
            try {
                c.close();
            } catch (SQLException e) {
                // closing anyway
            }
        }
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        throw new SQLFeatureNotSupportedException("the pool connects with its options' user");
    }

    @Override
    public PrintWriter getLogWriter() {
        return new PrintWriter(PrintWriter.nullWriter());
    }

    @Override
    public void setLogWriter(PrintWriter out) {}

    @Override
    public void setLoginTimeout(int seconds) {}

    @Override
    public int getLoginTimeout() {
        return 0;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException("no java.util.logging here");
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        if (iface.isInstance(this)) {
            return iface.cast(this);
        }
        throw new SQLException("not a wrapper of " + iface);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }
}
