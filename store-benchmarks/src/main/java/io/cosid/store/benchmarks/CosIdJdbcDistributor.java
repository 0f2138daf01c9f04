package io.cosid.store.benchmarks;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import me.ahoo.cosid.CosIdException;
import me.ahoo.cosid.segment.IdSegmentDistributor;

/**
 * A segment distributor written the way CosId's own {@code JdbcIdSegmentDistributor} is (its {@code
 * cosid-jdbc} module is not on Maven Central for the CosId version this project uses), with
 * PostgreSQL's SQL: in one transaction {@code UPDATE cosid SET last_max_id = last_max_id + step,
 * last_fetch_time = now WHERE name = ?}, then {@code SELECT last_max_id}, then {@code COMMIT}:
 * three round trips per segment. One connection of its own, kept open: no pool's cost.
 */
final class CosIdJdbcDistributor implements IdSegmentDistributor, AutoCloseable {

    private static final String INCREMENT =
            "UPDATE bench_cosid SET last_max_id = (last_max_id + ?), last_fetch_time ="
                    + " CAST(extract(epoch FROM now()) AS bigint) WHERE name = ?";
    private static final String FETCH = "SELECT last_max_id FROM bench_cosid WHERE name = ?";

    private final Connection connection;
    private final String name;
    private final long step;

    CosIdJdbcDistributor(String url, String name, long step) throws SQLException {
        this.connection = DriverManager.getConnection(url);
        this.name = name;
        this.step = step;
        try (PreparedStatement init =
                connection.prepareStatement(
                        "INSERT INTO bench_cosid (name, last_max_id, last_fetch_time) VALUES (?, 0,"
                                + " 0) ON CONFLICT (name) DO NOTHING")) {
            init.setString(1, getNamespacedName());
            init.executeUpdate();
        }
        connection.setAutoCommit(false);
    }

    /** CosId's table, as its {@code cosid-jdbc} module creates it, in PostgreSQL's types. */
    static void createTable(String url) throws SQLException {
        try (Connection c = DriverManager.getConnection(url);
                Statement s = c.createStatement()) {
            s.execute(
                    "CREATE TABLE IF NOT EXISTS bench_cosid (name varchar(100) PRIMARY KEY,"
                            + " last_max_id bigint NOT NULL DEFAULT 0, last_fetch_time bigint NOT"
                            + " NULL)");
        }
    }

    @Override
    public String getNamespace() {
        return "bench";
    }

    @Override
    public String getName() {
        return name;
    }

    @Override
    public long getStep() {
        return step;
    }

    @Override
    public synchronized long nextMaxId(long step) {
        try {
            try (PreparedStatement increment = connection.prepareStatement(INCREMENT)) {
                increment.setLong(1, step);
                increment.setString(2, getNamespacedName());
                if (increment.executeUpdate() == 0) {
                    throw new CosIdException("no row for " + getNamespacedName());
                }
            }
            long max;
            try (PreparedStatement fetch = connection.prepareStatement(FETCH)) {
                fetch.setString(1, getNamespacedName());
                try (ResultSet r = fetch.executeQuery()) {
                    r.next();
                    max = r.getLong(1);
                }
            }
            connection.commit();
            return max;
        } catch (SQLException e) {
            throw new CosIdException(e.getMessage(), e);
        }
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
