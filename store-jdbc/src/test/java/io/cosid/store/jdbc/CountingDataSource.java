package io.cosid.store.jdbc;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;

/**
 * A data source that counts what a store's operations send: statements prepared (each one a round
 * trip when executed) and commits.
 */
final class CountingDataSource extends ForwardingDataSource {

    private final DataSource target;
    final AtomicLong statements = new AtomicLong();
    final AtomicLong commits = new AtomicLong();

    CountingDataSource(DataSource target) {
        this.target = target;
    }

    @Override
    public Connection getConnection() throws SQLException {
        Connection real = target.getConnection();
        return (Connection)
                Proxy.newProxyInstance(
                        Connection.class.getClassLoader(),
                        new Class<?>[] {Connection.class},
                        (proxy, method, args) -> {
                            switch (method.getName()) {
                                // operations prepare every statement; a connection's one-time
                                // identity read (DatabaseIdentity) is a plain statement, not
                                // counted
                                case "prepareStatement" -> statements.incrementAndGet();
                                case "commit" -> commits.incrementAndGet();
                                default -> {
                                    // not counted
                                }
                            }
                            try {
                                return method.invoke(real, args);
                            } catch (InvocationTargetException e) {
                                throw e.getCause();
                            }
                        });
    }

    @Override
    DataSource target() {
        return target;
    }
}
