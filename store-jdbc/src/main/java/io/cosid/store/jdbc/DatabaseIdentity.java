package io.cosid.store.jdbc;

import io.cosid.store.StoreUnavailableException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which database a store writes to, as it was when the store opened: on PostgreSQL the cluster's
 * system identifier and its timeline (a new one after every promotion and point-in-time restore),
 * on MySQL and MariaDB the server's {@code server_id}. Every physical connection is checked once,
 * the first time the store uses it: after a failover or a restore every connection is new, so a
 * store whose pool was repointed at another server learns it before its first write there. What
 * then depends on option {@code failover}: {@code refuse} (the default) refuses every operation, as
 * values handed out before may be gone (an asynchronous standby, a restored backup); {@code accept}
 * goes on with the new server, for synchronous replication where a promoted standby has every
 * acknowledged commit (the store still refuses every key and slot it saw go back).
 */
final class DatabaseIdentity {

    private static final Logger LOG = LoggerFactory.getLogger(DatabaseIdentity.class);

    /** SQLState of a function the connecting role may not call. */
    private static final String INSUFFICIENT_PRIVILEGE = "42501";

    /** The timeline of the server's current WAL position: a new one after every promotion. */
    private static final String TIMELINE = "substr(pg_walfile_name(pg_current_wal_lsn()), 1, 8)";

    private final Dialect dialect;
    private final boolean accept;
    private boolean systemReadable;
    private volatile String known;
    private final Map<Connection, Boolean> checked =
            Collections.synchronizedMap(new WeakHashMap<>());

    private DatabaseIdentity(Dialect dialect, boolean accept, String known) {
        this.dialect = dialect;
        this.accept = accept;
        this.known = known;
    }

    /** The identity of the database {@code connection} leads to, remembered from now on. */
    static DatabaseIdentity of(Connection connection, Dialect dialect, boolean accept)
            throws SQLException {
        DatabaseIdentity identity = new DatabaseIdentity(dialect, accept, "");
        identity.systemReadable = dialect == Dialect.POSTGRESQL;
        try {
            identity.known = identity.read(connection);
        } catch (SQLException e) {
            if (!identity.systemReadable || !INSUFFICIENT_PRIVILEGE.equals(e.getSQLState())) {
                throw e;
            }
            // the role may not read it: the timeline alone tells promotions and restores
            identity.systemReadable = false;
            identity.known = identity.read(connection);
        }
        identity.checked.put(physical(connection), Boolean.TRUE);
        return identity;
    }

    /** The identity as it was last read, as messages name it. */
    String known() {
        return known;
    }

    /**
     * Checks the database behind {@code connection}, once per physical connection.
     *
     * @throws StoreUnavailableException if it is another database and option {@code failover} is
     *     {@code refuse}
     */
    void check(Connection connection) throws SQLException {
        Connection physical = physical(connection);
        if (checked.containsKey(physical)) {
            return;
        }
        String now = read(connection);
        if (!now.equals(known)) {
            String change = "the database changed since this store opened (" + known + " -> " + now;
            if (!accept) {
                throw new StoreUnavailableException(
                        "jdbc",
                        change
                                + "): a failover or a restore, which may have lost values already"
                                + " handed out; the store refuses to write. With synchronous"
                                + " replication reopen the store (or set option failover: accept);"
                                + " otherwise first advance every key and slot past what was"
                                + " handed out (docs/reliability.md, \"JDBC\")",
                        null);
            }
            LOG.warn("{}); going on, as option failover is accept", change);
            known = now;
        }
        checked.put(physical, Boolean.TRUE);
    }

    /** Whether the physical connection behind {@code connection} was checked already. */
    boolean checked(Connection connection) throws SQLException {
        return checked.containsKey(physical(connection));
    }

    /** One statement: the system identifier and the timeline, or what the role may read. */
    private String read(Connection connection) throws SQLException {
        try (Statement s = connection.createStatement()) {
            if (dialect == Dialect.MYSQL) {
                return "server_id " + single(s, "SELECT @@server_id");
            }
            if (!systemReadable) {
                return "timeline " + single(s, "SELECT " + TIMELINE);
            }
            try (ResultSet r =
                    s.executeQuery(
                            "SELECT system_identifier, "
                                    + TIMELINE
                                    + " FROM pg_control_system()")) {
                r.next();
                return "system " + r.getString(1) + ", timeline " + r.getString(2);
            }
        }
    }

    private static String single(Statement s, String sql) throws SQLException {
        try (ResultSet r = s.executeQuery(sql)) {
            r.next();
            return r.getString(1);
        }
    }

    /** The driver's own connection behind a pool's handle. */
    private static Connection physical(Connection connection) throws SQLException {
        return connection.isWrapperFor(Connection.class)
                ? connection.unwrap(Connection.class)
                : connection;
    }
}
