package io.cosid.store.cli;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code --seal-source}: renames a generator's rows to {@code <name>~migrated} so that it draws no
 * more, all in one transaction of the source database, before the target is written: either every
 * row is renamed and read back with its final maximum, or none is.
 */
final class SourceSeal {

    private SourceSeal() {}

    /**
     * Adds a blocker for every row whose sealed name would not fit the name column (a database in a
     * lenient mode would cut it short silently, and the row would be lost to the migration).
     */
    static void checkNames(
            Connection source,
            TableMigration.Layout layout,
            String table,
            List<String> keys,
            List<String> blockers)
            throws SQLException {
        if (keys.isEmpty()) {
            return;
        }
        int size = columnSize(source, table, layout.name);
        if (size <= 0) {
            return; // unbounded (text), or the driver does not say
        }
        for (String key : keys) {
            int needed = key.length() + TableMigration.SEALED.length();
            if (needed > size) {
                blockers.add(
                        layout.whose
                                + " row "
                                + key
                                + " cannot be sealed: "
                                + layout.name
                                + " holds at most "
                                + size
                                + " characters and "
                                + key
                                + TableMigration.SEALED
                                + " has "
                                + needed
                                + "; widen the column, or stop the generator and migrate without"
                                + " --seal-source");
            }
        }
    }

    /**
     * Renames {@code keys}' rows in one transaction and reads their final maxima; in a dry run only
     * says so. Nothing is renamed when any rename or the read back fails.
     *
     * @return each key's final maximum (empty in a dry run)
     * @throws ExitCodes.Refused if the source refused; no row was renamed then
     */
    static Map<String, Long> sealAll(
            Connection source,
            TableMigration.Layout layout,
            String table,
            List<String> keys,
            TargetSteps steps)
            throws SQLException {
        Map<String, Long> finals = new HashMap<>();
        if (keys.isEmpty() || steps.dryRun()) {
            return finals;
        }
        boolean autocommit = source.getAutoCommit();
        source.setAutoCommit(false);
        try {
            rename(source, layout, table, keys);
            Map<String, TableMigration.Row> after = TableMigration.read(source, layout, table);
            for (String key : keys) {
                TableMigration.Row row = after.get(key);
                if (row == null || !row.sealed() || !row.known()) {
                    throw new SQLException(
                            "row " + key + " is not " + key + TableMigration.SEALED + " after it");
                }
                finals.put(key, row.max());
            }
            source.commit();
        } catch (SQLException e) {
            source.rollback();
            throw new ExitCodes.Refused(
                    ExitCodes.FAILED,
                    "cannot seal "
                            + layout.whose
                            + " rows: "
                            + e.getMessage()
                            + "; no row was renamed and nothing was written to the target");
        } finally {
            source.setAutoCommit(autocommit);
        }
        keys.forEach(k -> steps.countChange());
        return finals;
    }

    private static void rename(
            Connection source, TableMigration.Layout layout, String table, List<String> keys)
            throws SQLException {
        try (PreparedStatement s =
                source.prepareStatement(
                        "UPDATE "
                                + table
                                + " SET "
                                + layout.name
                                + " = ? WHERE "
                                + layout.name
                                + " = ?")) {
            for (String key : keys) {
                s.setString(1, key + TableMigration.SEALED);
                s.setString(2, key);
                if (s.executeUpdate() != 1) {
                    throw new SQLException("row " + key + " was not found to rename");
                }
            }
        }
    }

    /** The declared size of {@code column}, 0 when unbounded or not said. */
    private static int columnSize(Connection source, String table, String column)
            throws SQLException {
        DatabaseMetaData meta = source.getMetaData();
        String bare = table.contains(".") ? table.substring(table.lastIndexOf('.') + 1) : table;
        for (String name :
                List.of(bare, bare.toLowerCase(Locale.ROOT), bare.toUpperCase(Locale.ROOT))) {
            try (ResultSet r = meta.getColumns(null, null, name, null)) {
                while (r.next()) {
                    if (r.getString("COLUMN_NAME").equalsIgnoreCase(column)) {
                        String type = r.getString("TYPE_NAME").toLowerCase(Locale.ROOT);
                        return type.contains("char") ? r.getInt("COLUMN_SIZE") : 0;
                    }
                }
            }
        }
        return 0;
    }
}
