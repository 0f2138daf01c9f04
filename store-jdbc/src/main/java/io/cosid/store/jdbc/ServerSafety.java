package io.cosid.store.jdbc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a server's settings say about the promise a store makes: a value handed out once must never
 * come back after a crash or a failover. Read once when a store opens: what breaks the promise is
 * refused, naming the setting; what weakens it on a failover is warned of.
 */
final class ServerSafety {

    /** Where README.md says more, cited at the end of every warning. */
    private static final String UNSAFE =
            " (store-jdbc/README.md, \"Unsafe servers and topologies\")";

    private ServerSafety() {}

    /**
     * What was found.
     *
     * @param refusals why the store must not open here, each naming the setting; empty when none
     * @param warnings what a failover could cost, each naming the setting
     */
    record Report(List<String> refusals, List<String> warnings) {}

    /**
     * Reads the server's settings on {@code connection}, all in one statement (a fleet opens many
     * stores at once).
     */
    static Report check(Connection connection) throws SQLException {
        List<String> refusals = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        try (Statement s = connection.createStatement();
                ResultSet r =
                        s.executeQuery(
                                "SELECT pg_is_in_recovery(), current_setting('fsync'),"
                                        + " current_setting('synchronous_commit'),"
                                        + " current_setting('full_page_writes'),"
                                        + " current_setting('synchronous_standby_names'),"
                                        // the WAL senders alone: pg_stat_replication joins every
                                        // backend's activity, milliseconds with many connections
                                        + " (SELECT count(*) FROM pg_stat_get_wal_senders())")) {
            r.next();
            if (r.getBoolean(1)) {
                refusals.add(
                        "the server is a standby in recovery (pg_is_in_recovery() is true): it"
                                + " cannot take writes, and what it shows may lag the primary;"
                                + " point the store at the primary");
            }
            if (word(r, 2).equals("off")) {
                refusals.add(
                        "fsync is off: a crash can lose committed writes, and a counter could"
                                + " come back lower; set fsync = on");
            }
            String commit = word(r, 3);
            if (commit.equals("off")) {
                refusals.add(
                        "synchronous_commit is off: a crash can lose writes the server already"
                                + " acknowledged, and hand their values out again; set"
                                + " synchronous_commit = on (at least for the store's role)");
            }
            if (word(r, 4).equals("off")) {
                refusals.add(
                        "full_page_writes is off: a crash in the middle of a page write can leave"
                                + " a torn page that replay cannot repair, and a counter's row with"
                                + " it; set full_page_writes = on");
            }
            warnings.addAll(replicationWarnings(commit, word(r, 5), r.getLong(6)));
            return new Report(List.copyOf(refusals), List.copyOf(warnings));
        }
    }

    /**
     * What a failover could cost with these replication settings: standbys that are asynchronous,
     * or a synchronous standby named while commits do not wait for its flush.
     */
    private static List<String> replicationWarnings(
            String commit, String standbyNames, long walSenders) {
        List<String> warnings = new ArrayList<>();
        boolean named = !standbyNames.isEmpty();
        if (walSenders > 0 && !named) {
            warnings.add(
                    "the server has standbys but synchronous_standby_names is empty: they are"
                            + " asynchronous, and promoting one can lose acknowledged writes;"
                            + " a store then refuses every key and slot written before the"
                            + " promotion until `cosid-store after-failover` moves them past"
                            + " the loss"
                            + UNSAFE);
        }
        if (named && (commit.equals("local") || commit.equals("remote_write"))) {
            warnings.add(
                    "synchronous_commit is "
                            + commit
                            + " with synchronous_standby_names set: "
                            + (commit.equals("local")
                                    ? "a commit is acknowledged before any standby has it"
                                    : "a commit is acknowledged once a standby received it,"
                                            + " before it flushed it: a standby whose"
                                            + " operating system crashes too loses it")
                            + "; the store counts such writes as asynchronous, refused after a"
                            + " promotion until `cosid-store after-failover`; set"
                            + " synchronous_commit = on (or remote_apply)"
                            + UNSAFE);
        }
        return warnings;
    }

    /** Reads the settings of the server {@code connection} leads to, in its dialect. */
    static Report check(Connection connection, Dialect dialect) throws SQLException {
        return dialect == Dialect.POSTGRESQL ? check(connection) : checkMySql(connection);
    }

    /**
     * MySQL and MariaDB: a read-only server (a replica, usually) and a log flushed less than at
     * every commit are refused; a binary log not synced at every commit is warned of (a replica
     * promoted after a crash may lack acknowledged writes).
     */
    private static Report checkMySql(Connection connection) throws SQLException {
        List<String> refusals = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        try (Statement s = connection.createStatement();
                ResultSet r =
                        s.executeQuery(
                                "SELECT @@read_only, @@innodb_flush_log_at_trx_commit, @@log_bin,"
                                        + " @@sync_binlog")) {
            r.next();
            if (r.getLong(1) != 0) {
                refusals.add(
                        "the server is read-only (read_only = ON), as a replica is: point the"
                                + " store at the primary");
            }
            if (r.getLong(2) != 1) {
                refusals.add(
                        "innodb_flush_log_at_trx_commit is not 1: a crash can lose committed"
                                + " writes, and a counter could come back lower; set it to 1");
            }
            if (r.getLong(3) != 0 && r.getLong(4) != 1) {
                warnings.add(
                        "the binary log is on but sync_binlog is not 1: a replica promoted after"
                                + " a crash may lack acknowledged writes; a store then refuses"
                                + " every key and slot written on another server until"
                                + " `cosid-store after-failover` moves them past the loss"
                                + UNSAFE);
            }
        }
        return new Report(List.copyOf(refusals), List.copyOf(warnings));
    }

    /** Column {@code i} as a lower-case word, trimmed. */
    private static String word(ResultSet r, int i) throws SQLException {
        String v = r.getString(i);
        return v == null ? "" : v.trim().toLowerCase(Locale.ROOT);
    }
}
