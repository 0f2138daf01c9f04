package io.cosid.store.cli;

import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.Stores;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Option;

/**
 * How a command finds its store: a name in a {@code cosid.stores} YAML file, a ZooKeeper address,
 * or a JDBC URL.
 */
final class StoreSelection {

    @Option(
            names = "--config",
            paramLabel = "FILE",
            description =
                    "YAML file with cosid.stores.<name> entries, as applications configure them.")
    @Nullable Path config;

    @Option(
            names = "--store",
            paramLabel = "NAME",
            description =
                    "The store's name in --config (optional when the file configures one store).")
    @Nullable String store;

    @Option(
            names = "--connect",
            paramLabel = "HOST:PORT[,...]",
            description = "A ZooKeeper ensemble to use instead of --config.")
    @Nullable String connect;

    @Option(
            names = "--jdbc-url",
            paramLabel = "URL",
            description =
                    "A PostgreSQL database to use instead of --config, e.g."
                            + " jdbc:postgresql://db:5432/app?user=app&password=secret (tables"
                            + " prefixed cosid_).")
    @Nullable String jdbcUrl;

    @Option(
            names = "--root",
            paramLabel = "PATH",
            description = "The store's root with --connect (default /cosid).")
    @Nullable String root;

    @Option(
            names = "--timeout",
            paramLabel = "DURATION",
            description =
                    "Each store operation's time budget, e.g. 3s (default 3s, or the file's).")
    @Nullable String timeout;

    @Option(
            names = "--connect-wait",
            paramLabel = "DURATION",
            description =
                    "How long to wait for the first connection (default 5s, or --timeout if"
                            + " shorter).")
    @Nullable String connectWait;

    /** The connect wait of every command, unless {@code --connect-wait} or a shorter timeout. */
    static final Duration DEFAULT_CONNECT_WAIT = Duration.ofSeconds(5);

    /** The name of the store {@code --connect} builds: the tool's own, not the user's. */
    static final String TOOL_STORE = "cli";

    /** The ZooKeeper backend's root when none is given. */
    static final String DEFAULT_ROOT = "/cosid";

    /** Whether {@code config} is the store {@code --connect} built, not one the user named. */
    static boolean isToolStore(StoreConfig config) {
        return config.name().equals(TOOL_STORE);
    }

    /** Opens the selected store; the caller closes it. */
    Store open() {
        return Stores.open(config());
    }

    /**
     * Opens the selected store for a command that changes it; refuses an in-memory store, which
     * would live only as long as this command and so change nothing that lasts.
     */
    Store openForChange(String command) {
        return Stores.open(requireLasting(config(), command));
    }

    static StoreConfig requireLasting(StoreConfig c, String command) {
        if (c.type().equals("in-memory")) {
            throw new IllegalArgumentException(
                    command
                            + ": store "
                            + c.name()
                            + " is in-memory: it would live only inside this command, so nothing"
                            + " it changes would last; name a ZooKeeper or JDBC store");
        }
        return c;
    }

    StoreConfig config() {
        Duration budget = timeout == null ? null : duration("--timeout", timeout);
        Duration wait = connectWait(connectWait, budget);
        if (jdbcUrl != null) {
            if (connect != null || config != null || store != null || root != null) {
                throw new IllegalArgumentException(
                        "use either --jdbc-url, --connect (with --root) or --config (with"
                                + " --store)");
            }
            StoreConfig c = StoreConfig.of(TOOL_STORE, "jdbc").withOption("url", jdbcUrl);
            return budget == null ? c : c.withTimeout(budget);
        }
        if (connect != null) {
            if (config != null || store != null) {
                throw new IllegalArgumentException(
                        "use either --connect (with --root) or --config (with --store)");
            }
            StoreConfig c =
                    StoreConfig.of(TOOL_STORE, "zookeeper")
                            .withOption("connectString", connect)
                            .withOption(
                                    "blockUntilConnectedWait", StoreConfig.formatDuration(wait));
            if (root != null) {
                c = c.withOption("root", root);
            }
            return budget == null ? c : c.withTimeout(budget);
        }
        if (config == null) {
            throw new IllegalArgumentException(
                    "name a store: --config FILE [--store NAME], --connect HOST:PORT, or --jdbc-url"
                            + " URL");
        }
        if (root != null) {
            throw new IllegalArgumentException(
                    "--root goes with --connect; with --config set the root in the file");
        }
        StoreConfig c = named(ConfigFiles.read(config), store, "--store");
        if (budget != null) {
            c = c.withTimeout(budget);
        }
        return withConnectWait(c, wait);
    }

    /**
     * The connect wait: {@code --connect-wait} when given, else the default shortened to the
     * timeout.
     */
    static Duration connectWait(@Nullable String flag, @Nullable Duration timeout) {
        if (flag != null) {
            return duration("--connect-wait", flag);
        }
        return timeout != null && timeout.compareTo(DEFAULT_CONNECT_WAIT) < 0
                ? timeout
                : DEFAULT_CONNECT_WAIT;
    }

    /**
     * A configured store with the tool's connect wait: one setting on every path, so that the tool
     * gives up on an unreachable ensemble as soon, whichever way the store was named.
     */
    static StoreConfig withConnectWait(StoreConfig c, Duration wait) {
        return c.type().equals("zookeeper")
                ? c.withOption("blockUntilConnectedWait", StoreConfig.formatDuration(wait))
                : c;
    }

    static StoreConfig named(
            Map<String, StoreConfig> stores, @Nullable String name, String option) {
        if (name == null) {
            if (stores.size() == 1) {
                return stores.values().iterator().next();
            }
            throw new IllegalArgumentException(
                    "the file configures " + stores.keySet() + "; pick one with " + option);
        }
        StoreConfig c = stores.get(name);
        if (c == null) {
            throw new IllegalArgumentException(
                    option
                            + " "
                            + name
                            + " is not configured; configured stores: "
                            + stores.keySet());
        }
        return c;
    }

    static Duration duration(String option, String text) {
        Duration d = StoreConfig.parseDuration(option, text);
        if (d.isZero() || d.isNegative()) {
            throw new IllegalArgumentException(option + " must be more than 0, got " + text);
        }
        return d;
    }
}
