package io.cosid.store;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Learns what a store did, for metrics, logs and health checks: every operation once, with its
 * outcome and duration; conditional writes that did not land; the connection's state changes; the
 * leases this store's callers acquired, renewed, released or lost.
 *
 * <p>Attach one with {@link StoreConfig#withObserver}; every backend reports to it
 * (docs/contract.md, "Observation"). Each method has an empty default, so an observer implements
 * only what it needs.
 *
 * <p>Events carry the names an operator may want in a log line (a range key, a namespace, a lease's
 * owner key) beside the few low-cardinality values a metric may use as tags ({@link
 * OperationEvent#store()}, {@link OperationEvent#type()}, {@link Operation#tag()}, {@link
 * Outcome#tag()}): a metrics binding must never turn the former into tags.
 *
 * <p>Observers are called on the thread that did the work, before the operation returns to its
 * caller (connection events: on the client's event thread). They must be quick and must not call
 * the store; an exception an observer throws is logged and otherwise ignored, never passed to the
 * store's caller.
 */
public interface StoreObserver {

    /** An observer that ignores everything: the default of every store. */
    StoreObserver NONE = new StoreObserver() {};

    /**
     * A store that reports to this observer opened (before its first operation).
     *
     * @param store the store's name
     * @param type the store's backend type
     */
    default void opened(String store, String type) {}

    /**
     * That store closed (once, however often {@link Store#close()} was called).
     *
     * @param store the store's name
     * @param type the store's backend type
     */
    default void closed(String store, String type) {}

    /**
     * An operation ended, successfully or not. Called exactly once per call of a {@link RangeStore}
     * or {@link SlotLeaseStore} method or of {@link StoreAdmin#purge()}.
     *
     * @param event what ended and how
     */
    default void operation(OperationEvent event) {}

    /**
     * A conditional write inside an operation did not land: another writer came first (the
     * operation goes on), or its reply was lost and the store could not learn whether it landed
     * (what it would have written is skipped, never handed out).
     *
     * @param event which operation, and why
     */
    default void failedWrite(FailedWriteEvent event) {}

    /**
     * The store's connection to its backend changed state (backends without a connection never call
     * it).
     *
     * @param event the new state
     */
    default void connection(ConnectionEvent event) {}

    /**
     * A lease of this store's callers began, was renewed, was released or was found lost.
     *
     * @param event the lease and what happened to it
     */
    default void lease(LeaseEvent event) {}

    /**
     * Surrounds one operation, for what must enclose it rather than follow it (a span, a trace
     * context): called on the caller's thread before the backend is asked; {@code call} runs the
     * operation, reports its {@link #operation} event and its {@link #lease} events, and returns
     * its result or throws its failure. An implementation calls it once and returns what it
     * returned (or lets its exception through), like {@code Observation.observe}.
     *
     * <p>The store holds an implementation to that: if the hook throws before calling {@code call},
     * skips it, or calls it again, the failure is logged, the operation still runs exactly once,
     * and its caller gets the operation's own result or exception. Observers that nest ({@link
     * #all}) run their hooks outermost first.
     *
     * @param start which operation is about to run, on what
     * @param call the operation
     * @param <T> what it returns
     * @return what {@code call} returned
     */
    default <T> T around(OperationStart start, Supplier<T> call) {
        return call.get();
    }

    /**
     * One observer that passes every event to each of {@code observers} in order.
     *
     * @param observers the observers
     * @return an observer for all of them ({@link #NONE} for none, the observer itself for one)
     */
    static StoreObserver all(List<StoreObserver> observers) {
        List<StoreObserver> list = new ArrayList<>();
        for (StoreObserver o : observers) {
            Objects.requireNonNull(o, "observers must not contain null");
            if (o != NONE) {
                list.add(o);
            }
        }
        if (list.isEmpty()) {
            return NONE;
        }
        if (list.size() == 1) {
            return list.get(0);
        }
        List<StoreObserver> all = List.copyOf(list);
        return all.stream().anyMatch(AllObservers::surrounds)
                ? new AllObservers.Surrounding(all)
                : new AllObservers(all);
    }

    /** The operations a store reports, one per public method. */
    enum Operation {
        /** {@link RangeStore#acquire}. */
        RANGE_ACQUIRE,
        /** {@link RangeStore#peek}. */
        RANGE_PEEK,
        /** {@link RangeStore#advance}. */
        RANGE_ADVANCE,
        /** {@link RangeStore#seal}. */
        RANGE_SEAL,
        /** {@link RangeStore#list}. */
        RANGE_LIST,
        /** {@link SlotLeaseStore#define}. */
        NAMESPACE_DEFINE,
        /** {@link SlotLeaseStore#namespace}. */
        NAMESPACE_GET,
        /** {@link SlotLeaseStore#namespaces}. */
        NAMESPACE_LIST,
        /** Both {@code SlotLeaseStore.acquire} methods. */
        SLOT_ACQUIRE,
        /** {@link SlotLeaseStore#renew}. */
        SLOT_RENEW,
        /** Both {@code SlotLeaseStore.release} methods. */
        SLOT_RELEASE,
        /** {@link SlotLeaseStore#advance}. */
        SLOT_ADVANCE,
        /** {@link SlotLeaseStore#inspect}. */
        SLOT_INSPECT,
        /** {@link StoreAdmin#purge}. */
        PURGE;

        private final String tag = name().toLowerCase(Locale.ROOT).replace('_', '.');

        /**
         * The operation's name as a metric tag: {@code range.acquire}, {@code slot.renew}, ...
         *
         * @return the tag value
         */
        public String tag() {
            return tag;
        }
    }

    /** How an operation ended. */
    enum Outcome {
        /** It did what was asked. */
        SUCCESS,
        /** {@link RangeSealedException}: the key is sealed. */
        SEALED,
        /** {@link RangeExhaustedException} or {@link SlotsExhaustedException}. */
        EXHAUSTED,
        /** {@link SlotBusyException}: the preferred slot is held by another owner. */
        BUSY,
        /** {@link LeaseLostException}: the lease is no longer the caller's. */
        LEASE_LOST,
        /** {@link NamespaceNotFoundException}. */
        NOT_FOUND,
        /** {@link NamespaceConflictException}. */
        CONFLICT,
        /** {@link StoreTimeoutException}: the operation's budget ran out. */
        TIMED_OUT,
        /** {@link StoreUnavailableException}: the backend could not be reached. */
        UNAVAILABLE,
        /** {@link StoreCorruptedException}: stored data is corrupt or was tampered with. */
        CORRUPT,
        /**
         * Refused before anything was done: an invalid argument ({@link IllegalArgumentException})
         * or a closed store ({@link IllegalStateException}).
         */
        REFUSED,
        /** Any other failure. */
        FAILED;

        private final String tag = name().toLowerCase(Locale.ROOT).replace('_', '.');

        /**
         * The outcome as a metric tag: {@code success}, {@code lease.lost}, ...
         *
         * @return the tag value
         */
        public String tag() {
            return tag;
        }

        /**
         * The outcome a failure stands for.
         *
         * @param failure what the operation threw
         * @return its outcome, {@link #FAILED} when none more precise fits
         */
        public static Outcome of(Throwable failure) {
            if (failure instanceof RangeSealedException) {
                return SEALED;
            } else if (failure instanceof RangeExhaustedException
                    || failure instanceof SlotsExhaustedException) {
                return EXHAUSTED;
            } else if (failure instanceof SlotBusyException) {
                return BUSY;
            } else if (failure instanceof LeaseLostException) {
                return LEASE_LOST;
            } else if (failure instanceof NamespaceNotFoundException) {
                return NOT_FOUND;
            } else if (failure instanceof NamespaceConflictException) {
                return CONFLICT;
            } else if (failure instanceof StoreTimeoutException) {
                return TIMED_OUT;
            } else if (failure instanceof StoreUnavailableException) {
                return UNAVAILABLE;
            } else if (failure instanceof StoreCorruptedException) {
                return CORRUPT;
            } else if (failure instanceof IllegalArgumentException
                    || failure instanceof IllegalStateException) {
                return REFUSED;
            }
            return FAILED;
        }
    }

    /**
     * An operation about to run, as {@link #around} learns of it.
     *
     * @param store the store's name ({@link Store#name()})
     * @param type the store's backend type ({@link Store#type()})
     * @param operation which operation
     * @param subject the range key or namespace it is about; empty for a list or a purge (never a
     *     metric tag)
     */
    record OperationStart(String store, String type, Operation operation, String subject) {

        /**
         * Checks the values.
         *
         * @param store as described for the record
         * @param type as described for the record
         * @param operation as described for the record
         * @param subject as described for the record
         */
        public OperationStart {
            Objects.requireNonNull(store, "store");
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(operation, "operation");
            Objects.requireNonNull(subject, "subject");
        }
    }

    /**
     * An operation that ended.
     *
     * @param store the store's name ({@link Store#name()})
     * @param type the store's backend type ({@link Store#type()})
     * @param operation which operation
     * @param outcome how it ended
     * @param duration from the call to its return
     * @param subject the range key or namespace it was about; empty for a list or a purge (never a
     *     metric tag)
     * @param failure what the operation threw, for a log line; null on success
     */
    record OperationEvent(
            String store,
            String type,
            Operation operation,
            Outcome outcome,
            Duration duration,
            String subject,
            @Nullable Throwable failure) {

        /**
         * Checks the values.
         *
         * @param store as described for the record
         * @param type as described for the record
         * @param operation as described for the record
         * @param outcome as described for the record
         * @param duration as described for the record
         * @param subject as described for the record
         * @param failure as described for the record
         */
        public OperationEvent {
            Objects.requireNonNull(store, "store");
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(operation, "operation");
            Objects.requireNonNull(outcome, "outcome");
            Objects.requireNonNull(duration, "duration");
            Objects.requireNonNull(subject, "subject");
        }
    }

    /**
     * A conditional write that did not land.
     *
     * @param store the store's name
     * @param type the store's backend type
     * @param operation the operation it was part of
     * @param reason why it did not land
     */
    record FailedWriteEvent(String store, String type, Operation operation, Reason reason) {

        /**
         * Checks the values.
         *
         * @param store as described for the record
         * @param type as described for the record
         * @param operation as described for the record
         * @param reason as described for the record
         */
        public FailedWriteEvent {
            Objects.requireNonNull(store, "store");
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(operation, "operation");
            Objects.requireNonNull(reason, "reason");
        }

        /** Why a conditional write did not land. */
        public enum Reason {
            /** Another writer changed what it was conditional on first; the operation goes on. */
            LOST_RACE,
            /**
             * Its reply was lost and no copy of it settled whether it landed: what it would have
             * written is skipped (a gap), never handed out.
             */
            OUTCOME_UNKNOWN;

            private final String tag = name().toLowerCase(Locale.ROOT).replace('_', '.');

            /**
             * The reason as a metric tag: {@code lost.race} or {@code outcome.unknown}.
             *
             * @return the tag value
             */
            public String tag() {
                return tag;
            }
        }
    }

    /**
     * The store's connection changed state.
     *
     * @param store the store's name
     * @param type the store's backend type
     * @param state the new state
     * @param newSession with {@link State#RECONNECTED}: the backend gave the store a new session
     *     (the old one expired, and with it everything it held that lives only as long as a
     *     session)
     */
    record ConnectionEvent(String store, String type, State state, boolean newSession) {

        /**
         * Checks the values.
         *
         * @param store as described for the record
         * @param type as described for the record
         * @param state as described for the record
         * @param newSession as described for the record
         */
        public ConnectionEvent {
            Objects.requireNonNull(store, "store");
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(state, "state");
        }

        /** Connection states, as a ZooKeeper client knows them. */
        public enum State {
            /** Connected for the first time. */
            CONNECTED,
            /** The connection dropped; the session may still be alive, operations wait. */
            SUSPENDED,
            /** Connected again after {@link #SUSPENDED} or {@link #LOST}. */
            RECONNECTED,
            /** The session is considered gone; the client will try to get a new one. */
            LOST,
            /** Connected to a server that only serves reads; writes fail. */
            READ_ONLY;

            private final String tag = name().toLowerCase(Locale.ROOT).replace('_', '.');

            /**
             * The state as a metric tag: {@code suspended}, {@code read.only}, ...
             *
             * @return the tag value
             */
            public String tag() {
                return tag;
            }
        }
    }

    /**
     * Something happened to a lease of this store's callers.
     *
     * @param store the store's name
     * @param type the store's backend type
     * @param kind what happened
     * @param lease the lease: the new term for {@link Kind#ACQUIRED} and {@link Kind#RENEWED}, the
     *     term released or lost otherwise
     * @param validFor how long the caller may use the lease from now on ({@link LeaseGuard}'s rule:
     *     its TTL from when the request was sent); zero once released or lost
     * @param margin for {@link Kind#RENEWED}: how long the previous term was still valid for when
     *     the renewal was sent (small margins mean renewals come late); zero otherwise, and zero
     *     for a term this observer did not see begin
     */
    record LeaseEvent(
            String store,
            String type,
            Kind kind,
            SlotLease lease,
            Duration validFor,
            Duration margin) {

        /**
         * Checks the values.
         *
         * @param store as described for the record
         * @param type as described for the record
         * @param kind as described for the record
         * @param lease as described for the record
         * @param validFor as described for the record
         * @param margin as described for the record
         */
        public LeaseEvent {
            Objects.requireNonNull(store, "store");
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(lease, "lease");
            Objects.requireNonNull(validFor, "validFor");
            Objects.requireNonNull(margin, "margin");
        }

        /** What happened to a lease. */
        public enum Kind {
            /** A term began ({@link SlotLeaseStore#acquire}). */
            ACQUIRED,
            /** A term was extended ({@link SlotLeaseStore#renew}). */
            RENEWED,
            /** The caller gave it up ({@link SlotLeaseStore#release}). */
            RELEASED,
            /** A renew or release found it no longer the caller's. */
            LOST
        }
    }
}
