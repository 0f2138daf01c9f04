package io.cosid.store.jdbc;

import io.cosid.store.StoreCorruptedException;

/**
 * Where a row was last written: the origin (PostgreSQL's timeline, MySQL's {@code server_id}) and
 * whether the write's commit waited for a synchronous standby. Every write of a range or slot row
 * records both, computed by the server in the statement itself ({@link Dialect#origin()}, {@link
 * Dialect#replicated()}), so that they hold whichever connection, pool or proxy carried it.
 *
 * <p>A row last written under another origin without synchronous replication is <em>unsure</em>:
 * the server it was written on acknowledged writes a promoted standby or a restored backup may
 * lack, so the row may be older than what the store already handed out. Such a row is refused,
 * never written, until an operator moves it past the possible loss ({@code cosid-store
 * after-failover}), which writes it under the current origin. The check runs in every statement
 * that writes or reads a row for an operation, not once per connection, so it also holds through a
 * proxy (PgBouncer) that keeps a client's connection while it moves to another server.
 *
 * @param writtenOn the origin the row was last written under
 * @param replicated whether that write waited for a synchronous standby
 * @param now the origin the statement that read the row ran under
 */
record Provenance(long writtenOn, boolean replicated, long now) {

    /** The columns that hold a row's provenance, in the order every statement lists them. */
    static final String COLUMNS = "written_origin, written_replicated";

    /** Whether the row can be trusted to hold every write acknowledged on it. */
    boolean sure() {
        return writtenOn == now || replicated;
    }

    /**
     * The refusal of an unsure row, in one line naming both origins and the repair.
     *
     * @param where the row, as messages name it
     */
    StoreCorruptedException refusal(String where, Dialect dialect) {
        String name = dialect.originName();
        return new StoreCorruptedException(
                where,
                "last written under "
                        + name
                        + " "
                        + writtenOn
                        + " without synchronous replication, and the database is on "
                        + name
                        + " "
                        + now
                        + " now: a failover or restore may have lost writes acknowledged there,"
                        + " and what they handed out would be handed out again; move every key"
                        + " and slot past the loss with `cosid-store after-failover` (see its"
                        + " --dry-run; docs/operations.md, \"After a failover\")");
    }

    /**
     * The condition, on a row aliased {@code alias}, that it is sure.
     *
     * @param alias the row's alias in the statement, with its dot ({@code "r."}), or empty
     */
    static String sure(String alias, Dialect dialect) {
        return "("
                + alias
                + "written_origin = "
                + dialect.origin()
                + " OR "
                + alias
                + "written_replicated)";
    }

    /** The assignments that record a write's provenance, for an {@code UPDATE ... SET}. */
    static String assignments(Dialect dialect) {
        return "written_origin = "
                + dialect.origin()
                + ", written_replicated = "
                + dialect.replicated();
    }

    /** The values of {@link #COLUMNS} for an {@code INSERT}. */
    static String values(Dialect dialect) {
        return dialect.origin() + ", " + dialect.replicated();
    }

    /** What a read selects: the row's {@link #COLUMNS} and the origin it is read under. */
    static String select(Dialect dialect) {
        return COLUMNS + ", " + dialect.origin() + " AS origin_now";
    }
}
