package io.cosid.store.zookeeper.internal.wire;

import io.cosid.store.spi.StoreLog;
import io.cosid.store.zookeeper.internal.connect.ZooKeeperOptions;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * The log of a ZooKeeper store: spi's {@link StoreLog} written through SLF4J to logger {@value
 * #LOGGER}, and the lines only this backend writes (its client closing late, a line it may not
 * write).
 */
public final class ZooKeeperLog extends StoreLog {

    /** The logger every ZooKeeper store writes to. */
    static final String LOGGER = "io.cosid.store.zookeeper";

    private final Logger log;

    /** The log on logger {@value #LOGGER}. */
    public ZooKeeperLog() {
        this(LoggerFactory.getLogger(LOGGER));
    }

    ZooKeeperLog(Logger log) {
        this.log = log;
    }

    @Override
    protected boolean enabled(Severity severity) {
        return log.isEnabledForLevel(Level.valueOf(severity.name()));
    }

    @Override
    protected void write(Severity severity, String text, @Nullable Throwable failure) {
        log.atLevel(Level.valueOf(severity.name())).setCause(failure).log(text);
    }

    /** The store opened, with its effective options (secrets masked). */
    public void openedWith(String store, String options) {
        openedWith(store, ZooKeeperOptions.TYPE, options);
    }

    /**
     * The store builds its own client and was given no {@code connectString}: it connects to the
     * default, which is easy to mean otherwise, so it says so once, before connecting.
     */
    public void defaultConnectString(String store, String key, String connectString) {
        line(
                Severity.WARN,
                "store '%s' (zookeeper): %s is not set: the store connects to %s, the default; set"
                        + " %s",
                store,
                key,
                connectString,
                key);
    }

    /** The store's own client did not finish closing within the store's timeout. */
    public void clientStillClosing(String store, Duration timeout) {
        line(
                Severity.WARN,
                "store '%s' (zookeeper): its client did not finish closing within %s (the server"
                        + " does not answer); it finishes in the background",
                store,
                duration(timeout));
    }

    /**
     * The ACL of a range key's line refuses this store: it writes the key by compare-and-set alone,
     * without serving the writers waiting there (docs/contract.md, "Liveness under contention").
     */
    void lineNotWritable(String store, String key, String node) {
        line(
                Severity.WARN,
                "store '%s' (zookeeper): range key '%s' is written by compare-and-set alone: the"
                        + " ACL of %s does not let this store serve the writers waiting on it (give"
                        + " every store of the key the same identity, or acl=open)",
                store,
                key,
                node);
    }

    @Override
    public String toString() {
        return "ZooKeeperLog[" + LOGGER + "]";
    }
}
