package io.cosid.store.jdbc;

import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The names of a store's four tables: a prefix ({@code cosid_} by default) and, when given, the
 * schema they live in. Names are checked here once, so that every statement can splice them in.
 *
 * @param schema the schema, or empty for the connection's search path
 * @param prefix the prefix of every table's name
 */
record TableNames(String schema, String prefix) {

    /** The prefix when none is configured. */
    static final String DEFAULT_PREFIX = "cosid_";

    private static final Pattern PREFIX = Pattern.compile("[a-z_][a-z0-9_]{0,39}");
    private static final Pattern SCHEMA = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

    /**
     * Checks the names.
     *
     * @throws IllegalArgumentException naming the option and the rule, if one is malformed
     */
    TableNames {
        if (!PREFIX.matcher(prefix).matches()) {
            throw new IllegalArgumentException(
                    "tablePrefix '"
                            + prefix
                            + "' must be 1 to 40 lower-case letters, digits or underscores,"
                            + " starting with a letter or underscore");
        }
        if (!schema.isEmpty() && !SCHEMA.matcher(schema).matches()) {
            throw new IllegalArgumentException(
                    "schema '"
                            + schema
                            + "' must be 1 to 63 lower-case letters, digits or underscores,"
                            + " starting with a letter or underscore");
        }
    }

    /** The default names: prefix {@code cosid_}, no schema. */
    static TableNames defaults() {
        return new TableNames("", DEFAULT_PREFIX);
    }

    /** The names for options that may be absent. */
    static TableNames of(@Nullable String schema, @Nullable String prefix) {
        return new TableNames(
                schema == null ? "" : schema, prefix == null ? DEFAULT_PREFIX : prefix);
    }

    /** The range keys' table. */
    String ranges() {
        return qualified("ranges");
    }

    /** The namespaces' table. */
    String namespaces() {
        return qualified("namespaces");
    }

    /** The slots' table, one row per slot of every namespace. */
    String slots() {
        return qualified("slots");
    }

    /** The owner indexes' table. */
    String owners() {
        return qualified("owners");
    }

    /** The four tables' names, {@code *} for what tells them apart, as logs show them. */
    String shown() {
        return qualified("*");
    }

    /** A table's name without its schema, as the catalog lists it. */
    String bare(String table) {
        return prefix + table;
    }

    private String qualified(String table) {
        return schema.isEmpty() ? prefix + table : schema + "." + prefix + table;
    }
}
