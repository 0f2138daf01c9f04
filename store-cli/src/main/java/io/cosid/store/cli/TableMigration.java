package io.cosid.store.cli;

import io.cosid.store.RangeState;
import io.cosid.store.Store;
import io.cosid.store.StoreArguments;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Takes counters from another generator's SQL table onto a cosid-store store (docs/operations.md,
 * "From Leaf's and CosId's tables"): each row becomes the range key of its name, advanced to the
 * row's maximum, below which the generator may have handed out every value. Meituan Leaf's {@code
 * leaf_alloc} hands out {@code [max_id - step, max_id)}; CosId's {@code cosid} table (its {@code
 * JdbcIdSegmentDistributor}) hands out IDs up to {@code last_max_id}, and cosid-store's distributor
 * starts the next segment's IDs above a range's start.
 *
 * <p>With {@code --seal-source} each row is first renamed to {@code <name>~migrated}, so that the
 * generator finds no row to draw from (Leaf drops the tag, CosId's update changes no row), and only
 * then read: its maximum is final. Without it the generator must be stopped; rows are read again
 * after the migration, and one that moved is reported.
 */
final class TableMigration {

    /** The suffix a sealed row's name gets. */
    static final String SEALED = "~migrated";

    private static final Pattern NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_.]{0,127}");

    /** A generator's table layout: its default name, the name column and the maximum column. */
    enum Layout {
        LEAF("leaf_alloc", "biz_tag", "max_id", "Leaf's"),
        COSID("cosid", "name", "last_max_id", "CosId's");

        final String table;
        final String name;
        final String max;
        final String whose;

        Layout(String table, String name, String max, String whose) {
            this.table = table;
            this.name = name;
            this.max = max;
            this.whose = whose;
        }
    }

    /**
     * A row: its maximum, and whether a migration sealed it already (renamed with {@link #SEALED}).
     */
    record Row(long max, boolean sealed) {}

    private TableMigration() {}

    /**
     * Moves {@code keys} (all rows when empty) of {@code table} in {@code source} onto {@code
     * target}.
     */
    static Migration.Report run(
            Connection source,
            Layout layout,
            String table,
            Store target,
            List<String> keys,
            boolean seal,
            boolean dryRun)
            throws SQLException {
        if (!NAME.matcher(table).matches()) {
            throw new IllegalArgumentException(
                    "--source-table '"
                            + table
                            + "' must be a plain table name (letters, digits, _ .)");
        }
        Map<String, Row> rows = read(source, layout, table);
        List<String> chosen = keys.isEmpty() ? List.copyOf(rows.keySet()) : keys;
        List<String> blockers = new ArrayList<>();
        for (String key : chosen) {
            check(layout, rows, key, target, blockers);
        }
        TargetSteps.refuseIfBlocked(blockers, dryRun);
        TargetSteps steps = new TargetSteps(target, dryRun);
        for (String key : chosen) {
            List<String> actions = new ArrayList<>();
            Row row = Objects.requireNonNull(rows.get(key));
            long max = row.max();
            if (seal && !row.sealed()) {
                max = sealRow(source, layout, table, key, steps, actions);
            }
            steps.advanceKey(key, max, actions);
        }
        if (!seal && !dryRun) {
            Map<String, Row> after = read(source, layout, table);
            for (String key : chosen) {
                Row now = after.get(key);
                long before = Objects.requireNonNull(rows.get(key)).max();
                if (now != null && now.max() != before) {
                    steps.problem(
                            layout.whose
                                    + " row "
                                    + key
                                    + " moved from "
                                    + before
                                    + " to "
                                    + now.max()
                                    + " during the migration: its generator still draws from it;"
                                    + " stop it (or use --seal-source) and run again");
                }
            }
        }
        return steps.report(blockers);
    }

    /** What blocks moving a row: a name that is no range key, a key sealed lower on the target. */
    private static void check(
            Layout layout, Map<String, Row> rows, String key, Store target, List<String> blockers) {
        if (!rows.containsKey(key)) {
            throw new ExitCodes.Refused(
                    ExitCodes.NOT_FOUND,
                    "no row named " + key + " in " + layout.whose + " table; nothing was written");
        }
        try {
            StoreArguments.requireKey(key);
        } catch (IllegalArgumentException e) {
            blockers.add(
                    layout.whose + " row " + key + " cannot be a range key: " + e.getMessage());
            return;
        }
        Optional<RangeState> tgt = target.ranges().peek(key);
        long max = Objects.requireNonNull(rows.get(key)).max();
        if (tgt.isPresent() && tgt.get().sealed() && tgt.get().next() < max) {
            blockers.add(
                    "range key "
                            + key
                            + " is sealed on the target at "
                            + tgt.get().next()
                            + ", below "
                            + layout.whose
                            + " "
                            + max);
        }
    }

    /**
     * Renames the row so that its generator draws no more, then reads its final maximum. A row
     * sealed by an earlier run keeps its name and maximum.
     */
    private static long sealRow(
            Connection source,
            Layout layout,
            String table,
            String key,
            TargetSteps steps,
            List<String> actions)
            throws SQLException {
        if (!steps.dryRun()) {
            try (PreparedStatement s =
                    source.prepareStatement(
                            "UPDATE "
                                    + table
                                    + " SET "
                                    + layout.name
                                    + " = ? WHERE "
                                    + layout.name
                                    + " = ?")) {
                s.setString(1, key + SEALED);
                s.setString(2, key);
                s.executeUpdate();
            }
            steps.countChange();
        }
        actions.add(steps.said("sealed source row as " + key + SEALED, "seal source row"));
        Row row = read(source, layout, table).get(key);
        return row == null ? 0 : row.max();
    }

    /**
     * Every row by the key it stands for: a row a migration sealed ({@code <name>~migrated}) stands
     * for {@code <name>}, unless a row of that name exists again.
     */
    static Map<String, Row> read(Connection source, Layout layout, String table)
            throws SQLException {
        Map<String, Row> rows = new LinkedHashMap<>();
        try (PreparedStatement s =
                        source.prepareStatement(
                                "SELECT "
                                        + layout.name
                                        + ", "
                                        + layout.max
                                        + " FROM "
                                        + table
                                        + " ORDER BY "
                                        + layout.name);
                ResultSet r = s.executeQuery()) {
            while (r.next()) {
                String name = r.getString(1);
                if (name.endsWith(SEALED)) {
                    rows.putIfAbsent(
                            name.substring(0, name.length() - SEALED.length()),
                            new Row(r.getLong(2), true));
                } else {
                    rows.put(name, new Row(r.getLong(2), false));
                }
            }
        }
        return rows;
    }
}
