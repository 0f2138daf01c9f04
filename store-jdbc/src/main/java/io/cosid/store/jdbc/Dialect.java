package io.cosid.store.jdbc;

import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * What differs between the SQL databases a store speaks: the fragments its statements are built
 * from, and which of PostgreSQL's forms the other lacks. Everything else (the statements' shape,
 * the guards, the order of writes) is the same on every database.
 */
enum Dialect {
    /** PostgreSQL 14 or later. */
    POSTGRESQL(
            "postgresql",
            "cosid-store/schema/postgresql.sql",
            "bigint",
            "CAST(floor(extract(epoch FROM clock_timestamp()) * 1000) AS bigint)",
            "current_schema()",
            true),
    /** MySQL 8.0 or later, and MariaDB 10.6 or later (both have {@code SKIP LOCKED}). */
    MYSQL(
            "mysql",
            "cosid-store/schema/mysql.sql",
            "SIGNED",
            // SYSDATE, not NOW: the time the statement runs, not when it started
            "CAST(UNIX_TIMESTAMP(SYSDATE(3)) * 1000 AS SIGNED)",
            "DATABASE()",
            false);

    /** The name users write in option {@code dialect}. */
    final String option;

    /** The SQL file that creates the tables, in the jar. */
    final String schemaFile;

    /** The type a bound 64-bit number is cast to. */
    final String bigint;

    /** The server's wall clock in whole milliseconds since the epoch, when a statement runs. */
    final String serverMillis;

    /** The schema unqualified tables are in. */
    final String currentSchema;

    /** Whether a {@code WITH} clause may hold a writing statement whose rows a second one uses. */
    final boolean writableCte;

    Dialect(
            String option,
            String schemaFile,
            String bigint,
            String serverMillis,
            String currentSchema,
            boolean writableCte) {
        this.option = option;
        this.schemaFile = schemaFile;
        this.bigint = bigint;
        this.serverMillis = serverMillis;
        this.currentSchema = currentSchema;
        this.writableCte = writableCte;
    }

    /**
     * The store's now, from one parameter: the bound value when there is one (a test clock), else
     * the server's clock ({@link StoreClock}).
     */
    String now() {
        return "COALESCE(CAST(? AS " + bigint + "), " + serverMillis + ")";
    }

    /**
     * The origin of what a statement writes now ({@link Provenance}): on PostgreSQL the server's
     * timeline, a new one after every promotion and point-in-time restore; on MySQL and MariaDB the
     * server's {@code server_id}, another one on every other server of a replication topology.
     */
    String origin() {
        return this == POSTGRESQL
                ? "('x' || substr(pg_walfile_name(pg_current_wal_lsn()), 1, 8))::bit(32)::bigint"
                : "@@server_id";
    }

    /**
     * Whether a commit of the statement's session waits until a synchronous standby has flushed it
     * ({@link Provenance}): on PostgreSQL a standby named in {@code synchronous_standby_names} and
     * {@code synchronous_commit} {@code on} or {@code remote_apply}. Never on MySQL and MariaDB:
     * semi-synchronous replication falls back to asynchronous when a replica is slower than {@code
     * rpl_semi_sync_master_timeout}, without telling the client.
     */
    String replicated() {
        return this == POSTGRESQL
                ? "(current_setting('synchronous_standby_names') <> '' AND"
                        + " current_setting('synchronous_commit') IN ('on', 'remote_apply'))"
                : "false";
    }

    /** What {@link #origin()} is called in messages. */
    String originName() {
        return this == POSTGRESQL ? "timeline" : "server_id";
    }

    /** {@code INSERT INTO table}, or its form that skips rows whose key exists. */
    String insertSkipping(String table) {
        return this == POSTGRESQL ? "INSERT INTO " + table : "INSERT IGNORE INTO " + table;
    }

    /** What follows an {@link #insertSkipping} insert's rows: nothing, or PostgreSQL's clause. */
    String skipExisting(String key) {
        return this == POSTGRESQL ? " ON CONFLICT (" + key + ") DO NOTHING" : "";
    }

    /** The clause that makes an insert replace {@code column} of a row whose key exists. */
    String replacing(String key, String column) {
        return this == POSTGRESQL
                ? " ON CONFLICT (" + key + ") DO UPDATE SET " + column + " = EXCLUDED." + column
                : " ON DUPLICATE KEY UPDATE " + column + " = VALUES(" + column + ")";
    }

    /**
     * A derived table {@code g} with one column {@code n}: the whole numbers from the first
     * parameter to the second, both included, at most 100,000 of them (a namespace's slots).
     */
    String series() {
        if (this == POSTGRESQL) {
            return "(SELECT generate_series(?, ?) AS n) g";
        }
        String digits =
                "(SELECT 0 AS d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL"
                        + " SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION"
                        + " ALL SELECT 8 UNION ALL SELECT 9)";
        String n = "d0.d + 10 * d1.d + 100 * d2.d + 1000 * d3.d + 10000 * d4.d";
        StringBuilder from = new StringBuilder();
        for (int i = 0; i < 5; i++) {
            from.append(i == 0 ? "" : ", ").append(digits).append(" d").append(i);
        }
        return "(SELECT " + n + " AS n FROM " + from + " WHERE " + n + " BETWEEN ? AND ?) g";
    }

    /**
     * The dialect named by a database product, as {@code DatabaseMetaData} names it.
     *
     * @return the dialect, or null when this module speaks none for it
     */
    static @Nullable Dialect ofProduct(String product) {
        String p = product.toLowerCase(Locale.ROOT);
        if (p.contains("postgresql")) {
            return POSTGRESQL;
        }
        if (p.contains("mysql") || p.contains("mariadb")) {
            return MYSQL;
        }
        return null;
    }

    /**
     * The dialect an option names.
     *
     * @return the dialect, or null when none has that name
     */
    static @Nullable Dialect ofOption(String option) {
        for (Dialect d : values()) {
            if (d.option.equals(option.toLowerCase(Locale.ROOT))) {
                return d;
            }
        }
        return null;
    }
}
