package io.cosid.store.jdbc;

import io.cosid.store.StoreConfig;
import io.cosid.store.spi.SlotState;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * Moves a JDBC store's rows past a failover or a restore that may have lost acknowledged writes, so
 * that stores accept them again ({@code cosid-store after-failover}).
 *
 * <p>A row last written under another origin (PostgreSQL's timeline, MySQL's {@code server_id})
 * without synchronous replication may be older than what stores already handed out from it; stores
 * refuse it. Only an operator can say how far the lost writes may have gone: this raises every such
 * key's {@code next} by a margin (a sealed key keeps its final {@code next}), and every such slot's
 * fence by the same margin with its next floor at or after a stated instant, ending any term the
 * row shows; it then writes each row under the current origin. One transaction: all or nothing. A
 * dry run reads the same rows and changes nothing.
 *
 * <p>What it cannot see: a key or namespace all of whose writes were lost (created shortly before
 * the failover) is not in the database at all; stores create it afresh. Give such keys a start with
 * {@code advance} before instances use them (docs/operations.md, "After a failover").
 */
public final class AfterFailover {

    private AfterFailover() {}

    /**
     * What a run moved, or in a dry run would move.
     *
     * @param origin the origin rows are written under now, as messages name it ({@code timeline 2})
     * @param keys each key moved: its name, {@code next} before and after, and the origin it was
     *     last written under
     * @param slots each slot moved: its namespace and number, fence and next floor before and
     *     after, and the origin it was last written under
     * @param highestCeiling the highest window ceiling among the slots to move (what their rows
     *     show; a lost term's may be later), null when there are none
     * @param applied whether the rows were changed (false in a dry run)
     */
    public record Report(
            String origin,
            List<String> keys,
            List<String> slots,
            @Nullable Instant highestCeiling,
            boolean applied) {

        /** The report with its lists copied. */
        public Report {
            keys = List.copyOf(keys);
            slots = List.copyOf(slots);
        }
    }

    /**
     * Moves (or with {@code dryRun} only reads) every row a store would refuse as written before a
     * lossy failover, on the database {@code config}'s options name (option {@code url}).
     *
     * @param config the store's configuration (type {@value JdbcStoreProvider#TYPE}, with a {@code
     *     url}); its timeout bounds the whole transaction
     * @param margin how far to raise each key's {@code next} and each slot's fence: at least what
     *     the fleet may have handed out during the writes that were lost; 0 or more
     * @param slotsFrom the lowest next floor of every slot moved: at or after the end of every
     *     window the old server may have given (its last moment plus the longest ttl and
     *     tolerance); may be null only when no slot needs moving, or in a dry run
     * @param dryRun read and report only
     * @return what was (or would be) moved
     * @throws IllegalArgumentException if {@code margin} is negative, or slots need moving and
     *     {@code slotsFrom} is null outside a dry run (nothing is written)
     */
    public static Report run(
            StoreConfig config, long margin, @Nullable Instant slotsFrom, boolean dryRun) {
        if (margin < 0) {
            throw new IllegalArgumentException("margin must be 0 or more, got " + margin);
        }
        JdbcOptions options = JdbcOptions.of(config);
        String url = options.url();
        if (url == null) {
            throw new IllegalArgumentException(
                    config.optionPath("url") + " is required to move a store's rows");
        }
        try (ConnectionPool pool = JdbcStores.pool(config, options, url)) {
            JdbcCalls calls = new JdbcCalls(pool, config.name(), config.timeout());
            Dialect dialect =
                    calls.autocommit(
                            "open store '" + config.name() + "'",
                            s -> JdbcStores.checkServer(s, options));
            Schema schema = new Schema(options.names(), dialect);
            calls.autocommit(
                    "check the tables of store '" + config.name() + "'",
                    s -> {
                        schema.validate(s);
                        return true;
                    });
            Plan plan = new Plan(options.names(), dialect, margin, slotsFrom);
            return calls.transaction(
                    "after-failover of store '" + config.name() + "'", s -> plan.run(s, dryRun));
        }
    }

    /** One run's statements and what they found. */
    private static final class Plan {

        private final TableNames names;
        private final Dialect dialect;
        private final SlotTables tables;
        private final long margin;
        private final @Nullable Instant slotsFrom;
        private final String unsure;

        Plan(TableNames names, Dialect dialect, long margin, @Nullable Instant slotsFrom) {
            this.names = names;
            this.dialect = dialect;
            this.tables = new SlotTables(names, dialect);
            this.margin = margin;
            this.slotsFrom = slotsFrom;
            this.unsure = " WHERE NOT " + Provenance.sure("", dialect);
        }

        Report run(Session s, boolean dryRun) throws SQLException {
            String origin = dialect.originName() + " " + single(s, "SELECT " + dialect.origin());
            List<String> keys = keys(s);
            List<SlotMove> slots = slots(s);
            List<String> slotLines = new ArrayList<>();
            Instant highest = null;
            for (SlotMove m : slots) {
                slotLines.add(m.line());
                Instant ceiling = m.before().ceiling();
                highest = highest == null || ceiling.isAfter(highest) ? ceiling : highest;
            }
            if (dryRun) {
                return new Report(origin, keys, slotLines, highest, false);
            }
            if (!slots.isEmpty() && slotsFrom == null) {
                throw new IllegalArgumentException(
                        slots.size()
                                + " slot(s) need a start for their next windows (slots-from):"
                                + " at or after the last moment of the old server plus the"
                                + " longest ttl and tolerance; the highest ceiling their rows"
                                + " show is "
                                + highest
                                + ". Nothing was written");
            }
            raiseKeys(s);
            moveSlots(s, slots);
            return new Report(origin, keys, slotLines, highest, true);
        }

        /** The keys to move, locked, each as a line. */
        private List<String> keys(Session s) throws SQLException {
            List<String> keys = new ArrayList<>();
            try (PreparedStatement p =
                            s.prepare(
                                    "SELECT range_key, next_value, sealed, written_origin FROM "
                                            + names.ranges()
                                            + unsure
                                            + " ORDER BY range_key FOR UPDATE");
                    ResultSet r = p.executeQuery()) {
                while (r.next()) {
                    long next = r.getLong(2);
                    boolean sealed = r.getBoolean(3);
                    keys.add(
                            "range key '"
                                    + r.getString(1)
                                    + "': next "
                                    + next
                                    + " -> "
                                    + (sealed ? next + " (sealed)" : raised(next))
                                    + ", last written under "
                                    + dialect.originName()
                                    + " "
                                    + r.getLong(4));
                }
            }
            return keys;
        }

        private long raised(long value) {
            return value > Long.MAX_VALUE - margin ? Long.MAX_VALUE : value + margin;
        }

        private void raiseKeys(Session s) throws SQLException {
            try (PreparedStatement p =
                    s.prepare(
                            "UPDATE "
                                    + names.ranges()
                                    + " SET next_value = CASE WHEN sealed THEN next_value WHEN"
                                    + " next_value > "
                                    + Long.MAX_VALUE
                                    + " - ? THEN "
                                    + Long.MAX_VALUE
                                    + " ELSE next_value + ? END, "
                                    + Provenance.assignments(dialect)
                                    + unsure)) {
                p.setLong(1, margin);
                p.setLong(2, margin);
                p.executeUpdate();
            }
        }

        /** A slot to move: where it is, what its row holds, what it will hold. */
        private record SlotMove(
                String namespace,
                int slot,
                SlotState before,
                SlotState after,
                String writtenUnder) {
            String line() {
                return "slot "
                        + slot
                        + " of namespace '"
                        + namespace
                        + "': fence "
                        + before.fence()
                        + " -> "
                        + after.fence()
                        + ", next floor "
                        + before.nextFloor()
                        + " -> "
                        + after.nextFloor()
                        + (before.owner().isEmpty() || before.released()
                                ? ""
                                : ", term of '" + before.owner() + "' ended")
                        + ", last written under "
                        + writtenUnder;
            }
        }

        /** The slots to move, locked, with what each becomes. */
        private List<SlotMove> slots(Session s) throws SQLException {
            List<SlotMove> moves = new ArrayList<>();
            Instant floor = slotsFrom == null ? Instant.EPOCH : slotsFrom;
            try (PreparedStatement p =
                            s.prepare(
                                    "SELECT namespace, slot, "
                                            + SlotRows.select(dialect)
                                            + " FROM "
                                            + names.slots()
                                            + unsure
                                            + " ORDER BY namespace, slot FOR UPDATE");
                    ResultSet r = p.executeQuery()) {
                while (r.next()) {
                    String namespace = r.getString(1);
                    int slot = r.getInt(2);
                    SlotRows.Read read = SlotRows.read(r, 3, tables.where(namespace, slot));
                    SlotState before = read.state();
                    moves.add(
                            new SlotMove(
                                    namespace,
                                    slot,
                                    before,
                                    before.advancedTo(raised(before.fence()), floor),
                                    dialect.originName() + " " + read.provenance().writtenOn()));
                }
            }
            return moves;
        }

        private void moveSlots(Session s, List<SlotMove> moves) throws SQLException {
            if (moves.isEmpty()) {
                return;
            }
            try (PreparedStatement p = s.prepare(tables.slotUpdate)) {
                for (SlotMove m : moves) {
                    SlotRows.bind(p, 1, m.after(), UUID.randomUUID().toString());
                    p.setString(SlotRows.COUNT + 1, m.namespace());
                    p.setInt(SlotRows.COUNT + 2, m.slot());
                    p.addBatch();
                }
                p.executeBatch();
            }
        }

        private static String single(Session s, String sql) throws SQLException {
            try (PreparedStatement p = s.prepare(sql);
                    ResultSet r = p.executeQuery()) {
                r.next();
                return r.getString(1);
            }
        }
    }
}
