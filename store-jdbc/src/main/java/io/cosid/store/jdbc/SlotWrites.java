package io.cosid.store.jdbc;

import io.cosid.store.LeaseLostException;
import io.cosid.store.SlotLease;
import io.cosid.store.StoreException;
import io.cosid.store.StoreTimeoutException;
import io.cosid.store.StoreUnavailableException;
import io.cosid.store.spi.Deadline;
import io.cosid.store.spi.OperationNames;
import io.cosid.store.spi.Settlements;
import io.cosid.store.spi.SlotState;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * Writes of a held term (renew, release) and the row lock every slot write takes first; settles
 * commits whose reply was lost by the nonce the row carries.
 */
final class SlotWrites {

    /**
     * A slot's row locked for this transaction, with the store's now read under the lock.
     *
     * @param state the slot (never held when the row is missing)
     * @param nonce the nonce of the write that left it; empty when missing
     * @param now the store's now
     * @param exists whether the row exists
     */
    record Locked(SlotState state, String nonce, Instant now, boolean exists) {}

    private final JdbcCalls calls;
    private final JdbcCalls settling;
    private final SlotTables tables;
    private final SlotMarks marks;
    private final StoreClock clock;
    private final Settlements later;

    SlotWrites(
            JdbcCalls calls,
            JdbcCalls settling,
            SlotTables tables,
            SlotMarks marks,
            StoreClock clock,
            Settlements later) {
        this.calls = calls;
        this.settling = settling;
        this.tables = tables;
        this.marks = marks;
        this.clock = clock;
        this.later = later;
    }

    SlotLease renew(SlotLease lease) {
        String operation = OperationNames.renew(lease.namespace(), lease.slot());
        String nonce = UUID.randomUUID().toString();
        Deadline deadline = calls.deadline(operation);
        try {
            SlotState renewed =
                    calls.transaction(
                            deadline,
                            s -> {
                                Locked locked = lock(s, lease.namespace(), lease.slot());
                                SlotState next =
                                        locked.state()
                                                .requireCurrentTermOf(lease)
                                                .renewedAt(locked.now());
                                update(s, lease.namespace(), lease.slot(), next, nonce);
                                return next;
                            });
            marks.wrote(lease.namespace(), lease.slot(), renewed);
            return renewed.toLease(lease.namespace(), lease.slot());
        } catch (JdbcCalls.UnknownOutcome e) {
            ReadBack back = readBack(deadline, lease, nonce);
            if (back.mine().isPresent()) {
                return back.mine().get().toLease(lease.namespace(), lease.slot());
            }
            throw unknown(operation, e, back);
        }
    }

    /**
     * Ends the lease's term; a null {@code stampedBefore} declares nothing, so the whole window
     * stays used. A release that ran out of time, or whose outcome is unknown, is finished in the
     * background (docs/contract.md, "Timed-out calls leave nothing held").
     */
    Instant release(SlotLease lease, @Nullable Instant stampedBefore) {
        String operation = OperationNames.release(lease.namespace(), lease.slot());
        Deadline deadline = calls.deadline(operation);
        String nonce = UUID.randomUUID().toString();
        try {
            return endTerm(calls, deadline, lease, stampedBefore, nonce);
        } catch (JdbcCalls.UnknownOutcome e) {
            ReadBack back = readBack(deadline, lease, nonce);
            if (back.mine().isPresent()) {
                return back.mine().get().nextFloor();
            }
            finishLater(operation, lease, stampedBefore);
            throw unknown(operation, e, back);
        } catch (StoreTimeoutException | StoreUnavailableException e) {
            finishLater(operation, lease, stampedBefore);
            throw e;
        }
    }

    private Instant endTerm(
            JdbcCalls on,
            Deadline deadline,
            SlotLease lease,
            @Nullable Instant stampedBefore,
            String nonce) {
        SlotState ended =
                on.transaction(
                        deadline,
                        s -> {
                            Locked locked = lock(s, lease.namespace(), lease.slot());
                            SlotState slot = locked.state();
                            boolean sameTerm =
                                    slot.fence() == lease.fence()
                                            && slot.owner().equals(lease.ownerKey());
                            if (sameTerm && slot.released()) {
                                return slot; // idempotent: released already
                            }
                            SlotState released =
                                    slot.requireCurrentTermOf(lease)
                                            .releasedAt(
                                                    locked.now(),
                                                    stampedBefore == null
                                                            ? slot.ceiling()
                                                            : stampedBefore);
                            update(s, lease.namespace(), lease.slot(), released, nonce);
                            return released;
                        });
        marks.wrote(lease.namespace(), lease.slot(), ended);
        return ended.nextFloor();
    }

    private void finishLater(String operation, SlotLease lease, @Nullable Instant stampedBefore) {
        later.later(
                "finishing a timed-out " + operation,
                lease.ttl(),
                d -> {
                    try {
                        endTerm(settling, d, lease, stampedBefore, UUID.randomUUID().toString());
                    } catch (LeaseLostException e) {
                        // another term started: nothing is left to finish
                    }
                    return true;
                });
    }

    /**
     * An acquire whose commit got no reply: its term is the caller's if the row carries its nonce;
     * otherwise the outcome is unknown, and if the term lands after all it is released in the
     * background declaring its floor, since nobody stamped under it.
     */
    SlotLease settleAcquire(
            Deadline deadline, SlotAcquire.Attempt attempt, JdbcCalls.UnknownOutcome e) {
        String operation = deadline.operation();
        String nonce = attempt.nonce();
        SlotAcquire.Started sent = attempt.written();
        if (sent == null) {
            throw unknown(operation, e, null);
        }
        SlotLease lease = sent.lease();
        ReadBack back = readBack(deadline, lease, nonce);
        if (back.mine().isPresent()) {
            return lease;
        }
        later.later(
                "releasing the term of a timed-out " + operation,
                lease.ttl(),
                d -> releaseIfMine(d, lease, nonce));
        throw unknown(operation, e, back);
    }

    /** Releases the term {@code nonce} wrote, if the row still carries it; true when settled. */
    private boolean releaseIfMine(Deadline deadline, SlotLease lease, String nonce) {
        return settling.transaction(
                deadline,
                s -> {
                    Locked locked = lock(s, lease.namespace(), lease.slot());
                    if (!locked.nonce().equals(nonce)) {
                        return false; // not landed (yet), or ended by someone else
                    }
                    SlotState released =
                            locked.state().releasedAt(locked.now(), locked.state().floor());
                    update(
                            s,
                            lease.namespace(),
                            lease.slot(),
                            released,
                            UUID.randomUUID().toString());
                    return true;
                });
    }

    /** The slot as written by the write that carried {@code nonce}, when the row shows it. */
    private ReadBack readBack(Deadline deadline, SlotLease lease, String nonce) {
        try {
            return new ReadBack(calls.autocommit(deadline, s -> readNonce(s, lease, nonce)), null);
        } catch (StoreTimeoutException | StoreUnavailableException e) {
            return new ReadBack(Optional.empty(), e);
        }
    }

    /** The slot's state if its row carries {@code nonce}, recorded as this store's write. */
    private Optional<SlotState> readNonce(Session session, SlotLease lease, String nonce)
            throws SQLException {
        try (PreparedStatement s = session.prepare(tables.slotRead)) {
            s.setString(1, lease.namespace());
            s.setInt(2, lease.slot());
            try (ResultSet r = s.executeQuery()) {
                if (!r.next()) {
                    return Optional.empty();
                }
                SlotRows.Read read =
                        SlotRows.read(r, 1, tables.where(lease.namespace(), lease.slot()));
                if (!read.nonce().equals(nonce)) {
                    return Optional.empty();
                }
                marks.wrote(lease.namespace(), lease.slot(), read.state());
                return Optional.of(read.state());
            }
        }
    }

    /**
     * A row read back after a commit that got no reply.
     *
     * @param mine the state the write left, when the row carries its nonce
     * @param failure why the row could not be read, when it could not
     */
    private record ReadBack(Optional<SlotState> mine, @Nullable StoreException failure) {}

    /**
     * Locks the slot's row and reads it with the store's now, checked against what this store saw.
     */
    Locked lock(Session session, String namespace, int slot) throws SQLException {
        long since = marks.tick();
        try (PreparedStatement s = session.prepare(tables.slotLock)) {
            clock.bind(s, 1);
            s.setString(2, namespace);
            s.setInt(3, slot);
            try (ResultSet r = s.executeQuery()) {
                r.next();
                Instant now = Instant.ofEpochMilli(r.getLong(1));
                if (r.getString(2) == null) {
                    return new Locked(marks.missing(namespace, slot, since), "", now, false);
                }
                String where = tables.where(namespace, slot);
                SlotRows.Read read = SlotRows.read(r, 2, where).requireSure(where, tables.dialect);
                marks.read(namespace, slot, read.state(), since);
                return new Locked(read.state(), read.nonce(), now, true);
            }
        }
    }

    /**
     * Writes {@code state} over the slot's row, or creates it; a row created first is a lost race.
     */
    void write(Session session, String namespace, int slot, SlotState state, boolean exists)
            throws SQLException {
        String nonce = UUID.randomUUID().toString();
        if (exists) {
            update(session, namespace, slot, state, nonce);
            return;
        }
        try (PreparedStatement s = session.prepare(tables.slotInsert)) {
            SlotRows.bind(s, 1, state, nonce);
            s.setString(SlotRows.COUNT + 1, namespace);
            s.setInt(SlotRows.COUNT + 2, slot);
            if (s.executeUpdate() != 1) {
                throw new LostRace();
            }
        }
    }

    private void update(Session session, String namespace, int slot, SlotState state, String nonce)
            throws SQLException {
        try (PreparedStatement s = session.prepare(tables.slotUpdate)) {
            SlotRows.bind(s, 1, state, nonce);
            s.setString(SlotRows.COUNT + 1, namespace);
            s.setInt(SlotRows.COUNT + 2, slot);
            s.executeUpdate();
        }
    }

    /** The store's now. */
    Instant now(Session session) throws SQLException {
        try (PreparedStatement s = session.prepare(tables.now)) {
            clock.bind(s, 1);
            try (ResultSet r = s.executeQuery()) {
                r.next();
                return Instant.ofEpochMilli(r.getLong(1));
            }
        }
    }

    /**
     * A write whose outcome is unknown: a timeout when the budget ran out first (the read back, if
     * any, had no time left), else the store unavailable, saying what the read back found.
     */
    private static StoreException unknown(
            String operation, JdbcCalls.UnknownOutcome e, @Nullable ReadBack back) {
        StoreException failure = back == null ? null : back.failure();
        if (failure instanceof StoreTimeoutException || !e.session().deadline().hasTimeLeft()) {
            return e.session().deadline().expired(e.getCause());
        }
        String found =
                back == null
                        ? ""
                        : failure == null
                                ? " and the row does not show it"
                                : " and the row could not be read back ("
                                        + failure.getMessage()
                                        + ")";
        return new StoreUnavailableException(
                "jdbc",
                operation + ": the commit got no reply" + found + "; its outcome is unknown",
                e.getCause());
    }
}
