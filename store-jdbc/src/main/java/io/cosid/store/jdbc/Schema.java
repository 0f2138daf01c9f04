package io.cosid.store.jdbc;

import io.cosid.store.StoreException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The store's tables: created from the SQL file the jar ships for the dialect ({@code
 * cosid-store/schema/postgresql.sql}, {@code cosid-store/schema/mysql.sql}, the same ones Flyway or
 * Liquibase users apply), or checked at open, so that a missing table or column is named before any
 * operation runs.
 */
final class Schema {

    /** What a store does with its tables at open (option {@code schema}). */
    enum Mode {
        /** Refuse to open when a table or column is missing (the default). */
        VALIDATE,
        /** Create the tables when missing, then check them. */
        CREATE
    }

    private static final Pattern STATEMENTS = Pattern.compile(";\\s*(?:\\n|$)");

    /** A table's definition in a schema file: its name without the prefix, and its body. */
    private static final Pattern CREATE_TABLE =
            Pattern.compile(
                    "CREATE TABLE IF NOT EXISTS cosid_(\\w+) \\((.*?)\\n\\)", Pattern.DOTALL);

    /** What starts a line of a table's body that is not a column. */
    private static final Set<String> NOT_COLUMNS =
            Set.of("primary", "unique", "key", "index", "constraint", "check");

    /** Each dialect's tables and columns, read once from its schema file. */
    private static final Map<Dialect, Map<String, List<String>>> DEFINED = defined();

    private final TableNames names;
    private final Dialect dialect;

    Schema(TableNames names, Dialect dialect) {
        this.names = names;
        this.dialect = dialect;
    }

    /**
     * The columns each table must have, by table name without its prefix, as {@code dialect}'s
     * schema file defines them: the file is the one definition of the tables, so the check at open
     * cannot drift from what {@code schema: create} makes.
     */
    static Map<String, List<String>> columns(Dialect dialect) {
        return Objects.requireNonNull(DEFINED.get(dialect));
    }

    private static Map<Dialect, Map<String, List<String>>> defined() {
        Map<Dialect, Map<String, List<String>>> defined = new EnumMap<>(Dialect.class);
        for (Dialect d : Dialect.values()) {
            defined.put(d, parseColumns(d));
        }
        return defined;
    }

    private static Map<String, List<String>> parseColumns(Dialect dialect) {
        Map<String, List<String>> columns = new LinkedHashMap<>();
        Matcher table = CREATE_TABLE.matcher(stripComments(read(dialect.schemaFile)));
        while (table.find()) {
            List<String> names = new ArrayList<>();
            for (String line : table.group(2).split("\n", -1)) {
                String first = line.strip().split("[\\s(,]", 2)[0].toLowerCase(Locale.ROOT);
                if (!first.isEmpty() && !NOT_COLUMNS.contains(first)) {
                    names.add(first);
                }
            }
            columns.put(table.group(1), List.copyOf(names));
        }
        return Collections.unmodifiableMap(columns);
    }

    /** The statements that create the tables under this store's names, in order. */
    List<String> createStatements() {
        String sql = read(dialect.schemaFile);
        for (String table : columns(dialect).keySet()) {
            sql = sql.replace("cosid_" + table + " ", qualified(table) + " ");
        }
        List<String> statements = new ArrayList<>();
        for (String part : STATEMENTS.split(sql, -1)) {
            String statement = stripComments(part).trim();
            if (!statement.isEmpty()) {
                statements.add(statement);
            }
        }
        return statements;
    }

    /**
     * Creates the missing tables, on PostgreSQL one store at a time (a transaction-scoped advisory
     * lock; MySQL commits each {@code CREATE TABLE IF NOT EXISTS} on its own, and a table created
     * meanwhile is only a warning).
     */
    void create(Session session) throws SQLException {
        if (dialect == Dialect.POSTGRESQL) {
            try (PreparedStatement s =
                    session.prepare("SELECT pg_advisory_xact_lock(hashtext(?))")) {
                s.setString(1, "cosid-store schema " + names.ranges());
                s.executeQuery().close();
            }
        }
        for (String statement : createStatements()) {
            try (PreparedStatement s = session.prepare(statement)) {
                s.execute();
            }
        }
    }

    /**
     * Checks that every table and column is there: one statement that selects every column of every
     * table and matches no row, which the server answers from its catalog cache; only when it fails
     * does {@link #explain} look up which table or column is missing. (The information schema's
     * views are far dearer: each read costs milliseconds, and a fleet opens many stores at once.)
     *
     * @throws StoreException naming the first missing table or column and how to create it
     */
    void validate(Session session) throws SQLException {
        try (PreparedStatement s = session.prepare(probe());
                ResultSet r = s.executeQuery()) {
            r.next();
        } catch (SQLException e) {
            explain(session);
            throw e; // every table and column is there: the probe failed for another reason
        }
    }

    /** Selects every column of every table, matching no row. */
    private String probe() {
        StringBuilder from = new StringBuilder();
        int i = 0;
        for (Map.Entry<String, List<String>> table : columns(dialect).entrySet()) {
            from.append(i == 0 ? "" : ", ")
                    .append("(SELECT ")
                    .append(String.join(", ", table.getValue()))
                    .append(" FROM ")
                    .append(qualified(table.getKey()))
                    .append(" WHERE 1 = 0) t")
                    .append(i++);
        }
        return "SELECT 1 FROM " + from;
    }

    /**
     * Looks up in the information schema which table or column is missing.
     *
     * @throws StoreException naming the first missing table or column and how to create it
     */
    private void explain(Session session) throws SQLException {
        String sql =
                "SELECT column_name FROM information_schema.columns WHERE table_schema = "
                        + (names.schema().isEmpty() ? dialect.currentSchema : "?")
                        + " AND table_name = ?";
        for (Map.Entry<String, List<String>> table : columns(dialect).entrySet()) {
            List<String> found = new ArrayList<>();
            try (PreparedStatement s = session.prepare(sql)) {
                int i = 1;
                if (!names.schema().isEmpty()) {
                    s.setString(i++, names.schema());
                }
                s.setString(i, names.bare(table.getKey()));
                try (ResultSet r = s.executeQuery()) {
                    while (r.next()) {
                        found.add(r.getString(1));
                    }
                }
            }
            String name = qualified(table.getKey());
            if (found.isEmpty()) {
                throw new StoreException(
                        "table "
                                + name
                                + " is missing; create it from "
                                + dialect.schemaFile
                                + " in the cosid-store-jdbc jar, or open with option schema:"
                                + " create");
            }
            for (String column : table.getValue()) {
                if (!found.contains(column)) {
                    throw new StoreException(
                            "table "
                                    + name
                                    + " has no column "
                                    + column
                                    + "; it was created for another version: compare it with "
                                    + dialect.schemaFile);
                }
            }
        }
    }

    private String qualified(String table) {
        return switch (table) {
            case "ranges" -> names.ranges();
            case "namespaces" -> names.namespaces();
            case "slots" -> names.slots();
            default -> names.owners();
        };
    }

    private static String stripComments(String sql) {
        StringBuilder kept = new StringBuilder();
        for (String line : sql.split("\n", -1)) {
            if (!line.trim().startsWith("--")) {
                kept.append(line).append('\n');
            }
        }
        return kept.toString();
    }

    private static String read(String resource) {
        try (InputStream in =
                Objects.requireNonNull(
                        Schema.class.getClassLoader().getResourceAsStream(resource), resource)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + resource + " from the jar", e);
        }
    }
}
