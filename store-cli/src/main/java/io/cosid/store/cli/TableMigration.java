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
     *
     * @param max the maximum; meaningful only when {@code known}
     * @param sealed whether a migration renamed it
     * @param known whether the maximum column holds a value (not NULL)
     */
    record Row(long max, boolean sealed, boolean known) {}

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
        List<String> toSeal =
                seal
                        ? chosen.stream()
                                .filter(k -> !Objects.requireNonNull(rows.get(k)).sealed())
                                .toList()
                        : List.of();
        SourceSeal.checkNames(source, layout, table, toSeal, blockers);
        TargetSteps.refuseIfBlocked(blockers, dryRun);
        TargetSteps steps = new TargetSteps(target, dryRun);
        // every row renamed in one transaction, before the target is written: all or none
        Map<String, Long> sealed = SourceSeal.sealAll(source, layout, table, toSeal, steps);
        int advanced = 0;
        for (String key : chosen) {
            List<String> actions = new ArrayList<>();
            long max = Objects.requireNonNull(rows.get(key)).max();
            if (toSeal.contains(key)) {
                actions.add(steps.said("sealed source row as " + key + SEALED, "seal source row"));
                max = sealed.getOrDefault(key, max);
            }
            try {
                steps.advanceKey(key, max, actions);
                advanced++;
            } catch (RuntimeException e) {
                throw stopped(layout, key, toSeal, steps, advanced, e);
            }
        }
        if (!seal && !dryRun) {
            checkUnmoved(source, layout, table, rows, chosen, steps);
        }
        return steps.report(blockers);
    }

    /** Reads the rows again: one that moved meanwhile has a generator still drawing from it. */
    private static void checkUnmoved(
            Connection source,
            Layout layout,
            String table,
            Map<String, Row> rows,
            List<String> chosen,
            TargetSteps steps)
            throws SQLException {
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
        Row row = Objects.requireNonNull(rows.get(key));
        if (!row.known()) {
            blockers.add(
                    layout.whose
                            + " row "
                            + key
                            + " has "
                            + layout.max
                            + " NULL: nothing tells what its generator handed out; set it to at"
                            + " least the highest ID handed out, or leave the row out (--keys)");
            return;
        }
        Optional<RangeState> tgt = target.ranges().peek(key);
        long max = row.max();
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
     * The failure of a target write after the source rows were sealed: says what changed (the rows
     * renamed, the keys advanced before it) and how to go on.
     */
    private static ExitCodes.Refused stopped(
            Layout layout,
            String key,
            List<String> sealed,
            TargetSteps steps,
            int advanced,
            RuntimeException e) {
        return new ExitCodes.Refused(
                ExitCodes.FAILED,
                "the target refused range key "
                        + key
                        + ": "
                        + ExitCodes.describe(e)
                        + ". Changed before it: "
                        + (steps.dryRun() || sealed.isEmpty()
                                ? "no source row"
                                : sealed.size()
                                        + " "
                                        + layout.whose
                                        + " row(s) renamed to <name>"
                                        + SEALED)
                        + ", "
                        + advanced
                        + " key(s) advanced on the target. Run the migration again once the"
                        + " target is fixed: sealed rows keep their final maximum");
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
                long max = r.getLong(2);
                boolean known = !r.wasNull();
                if (name.endsWith(SEALED)) {
                    rows.putIfAbsent(
                            name.substring(0, name.length() - SEALED.length()),
                            new Row(max, true, known));
                } else {
                    rows.put(name, new Row(max, false, known));
                }
            }
        }
        return rows;
    }
}
