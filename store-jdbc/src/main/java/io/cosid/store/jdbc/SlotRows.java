package io.cosid.store.jdbc;

import io.cosid.store.StoreArguments;
import io.cosid.store.StoreCorruptedException;
import io.cosid.store.spi.SlotState;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * A slot's row and its {@link SlotState}: the columns in the order every statement lists them, a
 * row read back into a state (checked: a row written by hand that breaks a rule is reported, never
 * used), and a state bound as parameters.
 */
final class SlotRows {

    /** The state's columns, in the order {@link #read} and {@link #bind} use. */
    static final String COLUMNS =
            "owner_key, released, fence, incarnation, ttl_ms, tolerance_ms, floor_ms, expires_ms,"
                    + " ceiling_ms, next_floor_ms, released_ms, nonce";

    /**
     * What a read selects: the state's columns, then the row's {@link Provenance} and the origin
     * the read runs under, as {@link #read} takes them.
     */
    static String select(Dialect dialect) {
        return COLUMNS + ", " + Provenance.select(dialect);
    }

    /** How many parameters {@link #bind} sets. */
    static final int COUNT = 12;

    private SlotRows() {}

    /**
     * A slot as read and checked, with the nonce of the write that left it.
     *
     * @param state the slot's state
     * @param nonce the nonce of the write that left it
     * @param provenance where the row was last written
     */
    record Read(SlotState state, String nonce, Provenance provenance) {

        /**
         * This read, when its row is sure to hold every write acknowledged on it.
         *
         * @param where the slot, as messages name it
         * @throws StoreCorruptedException if it is not ({@link Provenance})
         */
        Read requireSure(String where, Dialect dialect) {
            if (!provenance.sure()) {
                throw provenance.refusal(where, dialect);
            }
            return this;
        }
    }

    /**
     * The state in the columns starting at {@code first}, as {@link #select} lists them.
     *
     * @param where the slot, as messages name it
     * @throws StoreCorruptedException if the row breaks a rule
     */
    static Read read(ResultSet r, int first, String where) throws SQLException {
        String owner = r.getString(first);
        long fence = r.getLong(first + 2);
        long incarnation = r.getLong(first + 3);
        long ttl = r.getLong(first + 4);
        long tolerance = r.getLong(first + 5);
        long[] times = new long[5];
        for (int i = 0; i < times.length; i++) {
            times[i] = r.getLong(first + 6 + i);
        }
        String problem = problem(owner, fence, incarnation, ttl, tolerance, times);
        if (problem != null) {
            throw new StoreCorruptedException(where, "the row is not a valid slot: " + problem);
        }
        SlotState state =
                new SlotState(
                        owner,
                        r.getBoolean(first + 1),
                        fence,
                        incarnation,
                        Duration.ofMillis(ttl),
                        Duration.ofMillis(tolerance),
                        Instant.ofEpochMilli(times[0]),
                        Instant.ofEpochMilli(times[1]),
                        Instant.ofEpochMilli(times[2]),
                        Instant.ofEpochMilli(times[3]),
                        Instant.ofEpochMilli(times[4]));
        return new Read(
                state,
                r.getString(first + 11),
                new Provenance(
                        r.getLong(first + 12), r.getBoolean(first + 13), r.getLong(first + 14)));
    }

    private static @Nullable String problem(
            String owner, long fence, long incarnation, long ttl, long tolerance, long[] times) {
        if (fence < 0 || incarnation < 0) {
            return "fence " + fence + " and incarnation " + incarnation + " must be at least 0";
        }
        if (!owner.isEmpty()) {
            try {
                StoreArguments.requireOwnerKey(owner);
            } catch (IllegalArgumentException e) {
                return e.getMessage();
            }
            if (fence < 1 || incarnation < 1) {
                return "a held slot's fence and incarnation must be at least 1";
            }
        }
        if (ttl < 0 || ttl > StoreArguments.MAX_TTL.toMillis()) {
            return "ttl_ms " + ttl + " is outside 0.." + StoreArguments.MAX_TTL.toMillis();
        }
        if (tolerance < 0 || tolerance > StoreArguments.MAX_TOLERANCE.toMillis()) {
            return "tolerance_ms "
                    + tolerance
                    + " is outside 0.."
                    + StoreArguments.MAX_TOLERANCE.toMillis();
        }
        for (long t : times) {
            if (t < 0) {
                return "a time before the epoch: " + t;
            }
        }
        if (times[2] < times[1]) {
            return "ceiling_ms " + times[2] + " is below expires_ms " + times[1];
        }
        return null;
    }

    /**
     * Binds {@code state} and {@code nonce} to the {@link #COUNT} parameters from {@code first}.
     */
    static void bind(PreparedStatement s, int first, SlotState state, String nonce)
            throws SQLException {
        s.setString(first, state.owner());
        s.setBoolean(first + 1, state.released());
        s.setLong(first + 2, state.fence());
        s.setLong(first + 3, state.incarnation());
        s.setLong(first + 4, state.ttl().toMillis());
        s.setLong(first + 5, state.tolerance().toMillis());
        s.setLong(first + 6, state.floor().toEpochMilli());
        s.setLong(first + 7, state.expiresAt().toEpochMilli());
        s.setLong(first + 8, state.ceiling().toEpochMilli());
        s.setLong(first + 9, state.nextFloor().toEpochMilli());
        s.setLong(first + 10, state.releasedAt().toEpochMilli());
        s.setString(first + 11, nonce);
    }
}
