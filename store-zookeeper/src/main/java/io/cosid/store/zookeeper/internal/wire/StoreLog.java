package io.cosid.store.zookeeper.internal.wire;

import io.cosid.store.StoreConfig;
import io.cosid.store.StoreObserver;
import java.time.Duration;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The log lines of a ZooKeeper store, written as an observer of it, so that logs and metrics tell
 * the same story (docs/operations.md, "Logs"). WARN: what an operator must look at (a write of
 * unknown outcome, a lease lost, corrupt data, an operation out of time or connection, the
 * connection dropping); INFO: the store opened and closed, the connection back; DEBUG: every
 * operation, race and lease. Expected conditions never carry a stack trace; only a failure the
 * store did not expect does.
 */
public final class StoreLog implements StoreObserver {

    /** The logger every ZooKeeper store writes to. */
    static final String LOGGER = "io.cosid.store.zookeeper";

    private final Logger log;

    StoreLog() {
        this(LoggerFactory.getLogger(LOGGER));
    }

    StoreLog(Logger log) {
        this.log = log;
    }

    /** The store opened, with its effective options (secrets masked). */
    public void openedWith(String store, String options) {
        log.info("store '{}' (zookeeper) opened: {}", store, options);
    }

    /** The store's own client did not finish closing within the store's timeout. */
    public void clientStillClosing(String store, Duration timeout) {
        log.warn(
                "store '{}' (zookeeper): its client did not finish closing within {} (the server"
                        + " does not answer); it finishes in the background",
                store,
                StoreConfig.formatDuration(timeout));
    }

    /**
     * The ACL of a range key's line refuses this store: it writes the key by compare-and-set alone,
     * without serving the writers waiting there (docs/contract.md, "Liveness under contention").
     */
    void lineNotWritable(String store, String key, String node) {
        log.warn(
                "store '{}' (zookeeper): range key '{}' is written by compare-and-set alone: the"
                        + " ACL of {} does not let this store serve the writers waiting on it (give"
                        + " every store of the key the same identity, or acl=open)",
                store,
                key,
                node);
    }

    @Override
    public void closed(String store, String type) {
        log.info("store '{}' ({}) closed", store, type);
    }

    @Override
    public void operation(OperationEvent e) {
        switch (e.outcome()) {
            case SUCCESS -> {
                if (log.isDebugEnabled()) {
                    log.debug(
                            "store '{}': {}{} took {} ms",
                            e.store(),
                            e.operation().tag(),
                            on(e.subject()),
                            millis(e));
                }
            }
            case LEASE_LOST, CORRUPT, TIMED_OUT, UNAVAILABLE ->
                    log.warn(
                            "store '{}': {}{} ended {} after {} ms: {}",
                            e.store(),
                            e.operation().tag(),
                            on(e.subject()),
                            e.outcome().tag(),
                            millis(e),
                            message(e));
            case FAILED ->
                    log.warn(
                            "store '{}': {}{} failed unexpectedly after {} ms",
                            e.store(),
                            e.operation().tag(),
                            on(e.subject()),
                            millis(e),
                            e.failure());
            case SEALED, EXHAUSTED, BUSY, NOT_FOUND, CONFLICT, REFUSED -> {
                // the caller's answer, not the operator's concern
                if (log.isDebugEnabled()) {
                    log.debug(
                            "store '{}': {}{} ended {}: {}",
                            e.store(),
                            e.operation().tag(),
                            on(e.subject()),
                            e.outcome().tag(),
                            message(e));
                }
            }
        }
    }

    @Override
    public void failedWrite(FailedWriteEvent e) {
        switch (e.reason()) {
            case LOST_RACE ->
                    log.debug(
                            "store '{}': a write of {} lost a race to another writer",
                            e.store(),
                            e.operation().tag());
            case OUTCOME_UNKNOWN ->
                    log.warn(
                            "store '{}': a write of {} lost its reply and no copy settled whether"
                                + " it landed: a range's values are skipped (a gap, never handed"
                                + " out twice), a lease write is read back",
                            e.store(),
                            e.operation().tag());
        }
    }

    @Override
    public void connection(ConnectionEvent e) {
        switch (e.state()) {
            case CONNECTED -> log.info("store '{}': connected", e.store());
            case RECONNECTED -> {
                if (e.newSession()) {
                    log.warn(
                            "store '{}': reconnected on a new session (the old one expired)",
                            e.store());
                } else {
                    log.info("store '{}': reconnected on the same session", e.store());
                }
            }
            case SUSPENDED ->
                    log.warn(
                            "store '{}': connection suspended; operations wait for it within their"
                                    + " timeout",
                            e.store());
            case LOST -> log.warn("store '{}': session considered lost", e.store());
            case READ_ONLY -> log.warn("store '{}': connected to a read-only server", e.store());
        }
    }

    @Override
    public void lease(LeaseEvent e) {
        if (log.isDebugEnabled()) {
            log.debug(
                    "store '{}': lease {} of slot {} in '{}' (fence {}), valid for {} ms, margin"
                            + " {} ms",
                    e.store(),
                    e.kind().name().toLowerCase(Locale.ROOT),
                    e.lease().slot(),
                    e.lease().namespace(),
                    e.lease().fence(),
                    e.validFor().toMillis(),
                    e.margin().toMillis());
        }
    }

    private static String on(String subject) {
        return subject.isEmpty() ? "" : " '" + subject + "'";
    }

    private static String millis(OperationEvent e) {
        return String.format(Locale.ROOT, "%.1f", e.duration().toNanos() / 1e6);
    }

    private static String message(OperationEvent e) {
        Throwable t = e.failure();
        return t == null ? "" : String.valueOf(t.getMessage());
    }

    @Override
    public String toString() {
        return "StoreLog[" + LOGGER + "]";
    }
}
