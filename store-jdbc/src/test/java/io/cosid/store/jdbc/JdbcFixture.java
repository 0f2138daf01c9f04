package io.cosid.store.jdbc;

import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.StoreObserver;
import io.cosid.store.tck.ManualClock;
import io.cosid.store.tck.StoreFixture;
import io.cosid.store.tck.Tampering;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * The TCK's view of the JDBC backend on a real PostgreSQL server: each fixture gets a schema of its
 * own in the test class's database; stores run on the server's clock or, for the TCK's manual-clock
 * parts, on a test clock bound into the very same statements ({@link StoreClock}). Tampering writes
 * the tables by hand, as an operator might; the JDBC columns are typed, so "text that does not
 * parse" becomes a value the store must refuse (a negative fence or limit, a key that does not
 * match its hash, an owner index that is not a list of slots).
 */
final class JdbcFixture implements StoreFixture, Tampering {

    private static final AtomicInteger SCHEMAS = new AtomicInteger();

    private final ConnectionPool dataSource;
    private final String jdbcUrl;
    private final Dialect dialect;
    private final @Nullable ManualClock clock;
    private final String schema = "tck" + SCHEMAS.incrementAndGet();
    private final TableNames names = new TableNames(schema, TableNames.DEFAULT_PREFIX);
    private final List<Store> opened = new ArrayList<>();

    /**
     * @param jdbcUrl the database to make a schema in (on MySQL, a database of its own)
     * @param manual whether stores run on a test clock instead of the server's
     * @param dialect the server's dialect
     */
    JdbcFixture(String jdbcUrl, boolean manual, Dialect dialect) {
        this.dataSource = TestPools.pool(jdbcUrl);
        this.jdbcUrl = jdbcUrl;
        this.dialect = dialect;
        this.clock = manual ? new ManualClock(Instant.parse("2026-12-02T10:00:00Z")) : null;
        sql("CREATE SCHEMA " + schema);
    }

    private StoreConfig config(String name) {
        return StoreConfig.of(name, JdbcStoreProvider.TYPE)
                .withOption("schema", "create")
                .withOption("tableSchema", schema);
    }

    @Override
    public synchronized Store openStore() {
        return open(config("jdbc"));
    }

    @Override
    public synchronized Optional<Store> openObservedStore(StoreObserver observer) {
        return Optional.of(open(config("jdbc").withObserver(observer)));
    }

    private Store open(StoreConfig config) {
        StoreClock storeClock = clock == null ? StoreClock.server() : StoreClock.test(clock);
        Store store =
                JdbcStores.open(config, JdbcOptions.of(config), dataSource, storeClock, () -> {});
        opened.add(store);
        return store;
    }

    @Override
    public Instant storeNow() {
        if (clock != null) {
            return clock.instant();
        }
        try (Connection c = DriverManager.getConnection(jdbcUrl);
                PreparedStatement s = c.prepareStatement("SELECT " + dialect.now())) {
            StoreClock.server().bind(s, 1);
            try (ResultSet r = s.executeQuery()) {
                r.next();
                return Instant.ofEpochMilli(r.getLong(1));
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the server's clock", e);
        }
    }

    @Override
    public Optional<ManualClock> manualClock() {
        return Optional.ofNullable(clock);
    }

    @Override
    public Optional<Tampering> tampering() {
        return Optional.of(this);
    }

    @Override
    public synchronized void close() {
        opened.forEach(Store::close);
        sql(
                dialect == Dialect.POSTGRESQL
                        ? "DROP SCHEMA " + schema + " CASCADE"
                        : "DROP DATABASE " + schema);
        dataSource.close();
    }

    @Override
    public void corruptRange(String key, String garbage) {
        sql(
                "UPDATE " + names.ranges() + " SET range_key = ? WHERE range_key = ?",
                garbage.replace("\u0000", "?"),
                key);
    }

    @Override
    public void rewriteRange(String key, long next, boolean sealed) {
        sql(
                "UPDATE " + names.ranges() + " SET next_value = ?, sealed = ? WHERE range_key = ?",
                next,
                sealed,
                key);
    }

    @Override
    public void deleteSlot(String namespace, int slot) {
        sql("DELETE FROM " + names.slots() + " WHERE namespace = ? AND slot = ?", namespace, slot);
    }

    @Override
    public void recreateRange(String key) {
        try (Connection c = DriverManager.getConnection(jdbcUrl)) {
            c.setAutoCommit(false);
            Object[] row = new Object[6];
            try (PreparedStatement s =
                    c.prepareStatement(
                            "SELECT key_hash, range_key, next_value, sealed, "
                                    + Provenance.COLUMNS
                                    + " FROM "
                                    + names.ranges()
                                    + " WHERE range_key = ?")) {
                s.setString(1, key);
                try (ResultSet r = s.executeQuery()) {
                    r.next();
                    for (int i = 0; i < row.length; i++) {
                        row[i] = r.getObject(i + 1);
                    }
                }
            }
            try (PreparedStatement s =
                    c.prepareStatement("DELETE FROM " + names.ranges() + " WHERE range_key = ?")) {
                s.setString(1, key);
                s.executeUpdate();
            }
            try (PreparedStatement s =
                    c.prepareStatement(
                            "INSERT INTO "
                                    + names.ranges()
                                    + " (key_hash, range_key, next_value, sealed, "
                                    + Provenance.COLUMNS
                                    + ") VALUES (?, ?, ?, ?, ?, ?)")) {
                for (int i = 0; i < row.length; i++) {
                    s.setObject(i + 1, row[i]);
                }
                s.executeUpdate();
            }
            c.commit();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot recreate range key " + key, e);
        }
    }

    @Override
    public void corruptNamespace(String namespace, String garbage) {
        sql("UPDATE " + names.namespaces() + " SET slot_limit = -3 WHERE name = ?", namespace);
    }

    @Override
    public void corruptSlot(String namespace, int slot, String garbage) {
        sql(
                "UPDATE " + names.slots() + " SET fence = -1 WHERE namespace = ? AND slot = ?",
                namespace,
                slot);
    }

    @Override
    public void corruptOwnerIndex(String namespace, String ownerKey, String garbage) {
        sql(
                "INSERT INTO "
                        + names.owners()
                        + " (namespace, owner_key, slots) VALUES (?, ?, ?)"
                        + dialect.replacing("namespace, owner_key", "slots"),
                namespace,
                ownerKey,
                garbage.replace("\u0000", "?"));
    }

    @Override
    public Object snapshot() {
        List<List<Object>> rows = new ArrayList<>();
        for (String table :
                List.of(names.ranges(), names.namespaces(), names.slots(), names.owners())) {
            try (Connection c = DriverManager.getConnection(jdbcUrl);
                    Statement s = c.createStatement();
                    ResultSet r = s.executeQuery("SELECT * FROM " + table + " ORDER BY 1, 2")) {
                int columns = r.getMetaData().getColumnCount();
                while (r.next()) {
                    List<Object> row = new ArrayList<>();
                    row.add(table);
                    for (int i = 1; i <= columns; i++) {
                        Object value = r.getObject(i);
                        row.add(value instanceof byte[] b ? HexFormat.of().formatHex(b) : value);
                    }
                    rows.add(row);
                }
            } catch (SQLException e) {
                throw new IllegalStateException("cannot read " + table, e);
            }
        }
        return rows;
    }

    /** Runs a statement by hand, on a connection of its own in autocommit, as an operator would. */
    private void sql(String statement, Object... values) {
        try (Connection c = DriverManager.getConnection(jdbcUrl);
                PreparedStatement s = c.prepareStatement(statement)) {
            for (int i = 0; i < values.length; i++) {
                s.setObject(i + 1, values[i]);
            }
            s.execute();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot run " + statement, e);
        }
    }
}
