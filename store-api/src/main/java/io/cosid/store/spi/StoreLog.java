package io.cosid.store.spi;

import io.cosid.store.StoreConfig;
import io.cosid.store.StoreObserver;
import java.time.Duration;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * The log lines of a store, written as an observer of it, so that logs and metrics tell the same
 * story on every backend (docs/operations.md, "Logs"). WARN: what an operator must look at (a write
 * of unknown outcome, a lease lost, corrupt data, an operation out of time or connection, the
 * connection dropping); INFO: the store opened and closed, the connection back; DEBUG: every
 * operation, race and lease. Expected conditions never carry a stack trace; only a failure the
 * store did not expect does.
 *
 * <p>The levels and the wording are written here once; a backend supplies only the logging facade
 * it writes through ({@link #enabled}, {@link #write}) and the lines only it can write.
 */
public abstract class StoreLog implements StoreObserver {

    /** How much a line matters; a backend writes it at its logging facade's level of that name. */
    public enum Severity {
        /** Every operation, race and lease. */
        DEBUG,
        /** The store opened and closed; its connection back. */
        INFO,
        /** What an operator must look at. */
        WARN
    }

    /** A log of the backend's facade. */
    protected StoreLog() {}

    /**
     * Whether lines of {@code severity} are written, so that a line nobody reads is never
     * formatted.
     *
     * @param severity the severity
     * @return true if {@link #write} of that severity reaches a log
     */
    protected abstract boolean enabled(Severity severity);

    /**
     * Writes one line.
     *
     * @param severity its severity
     * @param text the line
     * @param failure the stack trace to show with it, for a failure the store did not expect
     */
    protected abstract void write(Severity severity, String text, @Nullable Throwable failure);

    /**
     * The store opened, with its effective options (secrets masked).
     *
     * @param store the store's name
     * @param type the store's type
     * @param options the effective options, secrets masked
     */
    public final void openedWith(String store, String type, String options) {
        line(Severity.INFO, "store '%s' (%s) opened: %s", store, type, options);
    }

    @Override
    public final void closed(String store, String type) {
        line(Severity.INFO, "store '%s' (%s) closed", store, type);
    }

    @Override
    public final void operation(OperationEvent e) {
        // every operation comes here: nothing is formatted unless its line is written
        if (!enabled(severityOf(e.outcome()))) {
            return;
        }
        String what = e.operation().tag() + on(e.subject());
        switch (e.outcome()) {
            case SUCCESS ->
                    line(Severity.DEBUG, "store '%s': %s took %s ms", e.store(), what, ms(e));
            case LEASE_LOST, CORRUPT, TIMED_OUT, UNAVAILABLE ->
                    line(
                            Severity.WARN,
                            "store '%s': %s ended %s after %s ms: %s",
                            e.store(),
                            what,
                            e.outcome().tag(),
                            ms(e),
                            message(e));
            case FAILED ->
                    write(
                            Severity.WARN,
                            format(
                                    "store '%s': %s failed unexpectedly after %s ms",
                                    e.store(), what, ms(e)),
                            e.failure());
            // the caller's answer, not the operator's concern
            case SEALED, EXHAUSTED, BUSY, NOT_FOUND, CONFLICT, REFUSED ->
                    line(
                            Severity.DEBUG,
                            "store '%s': %s ended %s: %s",
                            e.store(),
                            what,
                            e.outcome().tag(),
                            message(e));
        }
    }

    /** What an operation's outcome is to an operator. */
    private static Severity severityOf(Outcome outcome) {
        return switch (outcome) {
            case LEASE_LOST, CORRUPT, TIMED_OUT, UNAVAILABLE, FAILED -> Severity.WARN;
            case SUCCESS, SEALED, EXHAUSTED, BUSY, NOT_FOUND, CONFLICT, REFUSED -> Severity.DEBUG;
        };
    }

    @Override
    public final void failedWrite(FailedWriteEvent e) {
        String operation = e.operation().tag();
        switch (e.reason()) {
            case LOST_RACE ->
                    line(
                            Severity.DEBUG,
                            "store '%s': a write of %s lost a race to another writer",
                            e.store(),
                            operation);
            case OUTCOME_UNKNOWN ->
                    line(
                            Severity.WARN,
                            "store '%s': a write of %s lost its reply and nothing settled whether"
                                    + " it landed: a range's values are skipped (a gap, never"
                                    + " handed out twice), a lease write is read back",
                            e.store(),
                            operation);
        }
    }

    @Override
    public final void connection(ConnectionEvent e) {
        String store = e.store();
        switch (e.state()) {
            case CONNECTED -> line(Severity.INFO, "store '%s': connected", store);
            case RECONNECTED ->
                    line(
                            e.newSession() ? Severity.WARN : Severity.INFO,
                            e.newSession()
                                    ? "store '%s': reconnected on a new session (the old one"
                                            + " expired)"
                                    : "store '%s': reconnected on the same session",
                            store);
            case SUSPENDED ->
                    line(
                            Severity.WARN,
                            "store '%s': connection suspended; operations wait for it within"
                                    + " their timeout",
                            store);
            case LOST -> line(Severity.WARN, "store '%s': session considered lost", store);
            case READ_ONLY ->
                    line(Severity.WARN, "store '%s': connected to a read-only server", store);
        }
    }

    @Override
    public final void lease(LeaseEvent e) {
        if (!enabled(Severity.DEBUG)) {
            return; // every renewal comes here
        }
        line(
                Severity.DEBUG,
                "store '%s': lease %s of slot %d in '%s' (fence %d), valid for %d ms, margin %d ms",
                e.store(),
                e.kind().name().toLowerCase(Locale.ROOT),
                e.lease().slot(),
                e.lease().namespace(),
                e.lease().fence(),
                e.validFor().toMillis(),
                e.margin().toMillis());
    }

    /**
     * A settlement ({@link Settlements}) did not settle yet and is tried again.
     *
     * @param store the store's name
     * @param what what it settles
     * @param reason why this attempt did not
     */
    public final void settlementRetried(String store, String what, String reason) {
        line(Severity.DEBUG, "store '%s': %s not settled yet: %s", store, what, reason);
    }

    /**
     * A settlement ({@link Settlements}) was given up: the slot is free by its ttl instead.
     *
     * @param store the store's name
     * @param what what it settles
     * @param why why it was given up
     */
    public final void settlementAbandoned(String store, String what, String why) {
        line(
                Severity.WARN,
                "store '%s': %s: %s; the slot is free once the lease's ttl ran out",
                store,
                what,
                why);
    }

    /**
     * A settlement ({@link Settlements}) failed in a way the store did not expect.
     *
     * @param store the store's name
     * @param what what it settles
     * @param failure the failure, shown with its stack trace
     */
    public final void settlementFailed(String store, String what, Throwable failure) {
        if (enabled(Severity.WARN)) {
            write(
                    Severity.WARN,
                    format(
                            "store '%s': %s failed unexpectedly; the slot is free once the lease's"
                                    + " ttl ran out",
                            store, what),
                    failure);
        }
    }

    /**
     * Writes a line without a stack trace, formatted only if its severity is on.
     *
     * @param severity its severity
     * @param format a {@link String#format} pattern
     * @param args the pattern's arguments
     */
    protected final void line(Severity severity, String format, Object... args) {
        if (enabled(severity)) {
            write(severity, format(format, args), null);
        }
    }

    /**
     * {@code d} as the store's messages write durations (for a backend's own lines).
     *
     * @param d a duration
     * @return it as written in configuration, such as {@code 3s}
     */
    protected static String duration(Duration d) {
        return StoreConfig.formatDuration(d);
    }

    private static String format(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }

    private static String on(String subject) {
        return subject.isEmpty() ? "" : " '" + subject + "'";
    }

    private static String ms(OperationEvent e) {
        return String.format(Locale.ROOT, "%.1f", e.duration().toNanos() / 1e6);
    }

    private static String message(OperationEvent e) {
        Throwable t = e.failure();
        return t == null ? "" : String.valueOf(t.getMessage());
    }
}
