package io.cosid.store.cli;

import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.Stores;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * How a command finds its store: a name in a {@code cosid.stores} YAML file, or a ZooKeeper
 * address.
 */
final class StoreSelection {

    @Option(
            names = "--config",
            paramLabel = "FILE",
            description =
                    "YAML file with cosid.stores.<name> entries, as applications configure them.")
    Path config;

    @Option(
            names = "--store",
            paramLabel = "NAME",
            description =
                    "The store's name in --config (optional when the file configures one store).")
    String store;

    @Option(
            names = "--connect",
            paramLabel = "HOST:PORT[,...]",
            description = "A ZooKeeper ensemble to use instead of --config.")
    String connect;

    @Option(
            names = "--root",
            paramLabel = "PATH",
            description = "The store's root with --connect (default /cosid).")
    String root;

    @Option(
            names = "--timeout",
            paramLabel = "DURATION",
            description =
                    "Each store operation's time budget with --connect, e.g. 3s (default 3s).")
    String timeout;

    /** Opens the selected store; the caller closes it. */
    Store open() {
        return Stores.open(config());
    }

    StoreConfig config() {
        if (connect != null) {
            if (config != null || store != null) {
                throw new IllegalArgumentException(
                        "use either --connect (with --root) or --config (with --store)");
            }
            StoreConfig c =
                    StoreConfig.of("cli", "zookeeper")
                            .withOption("connectString", connect)
                            .withOption("blockUntilConnectedWait", "5s");
            if (root != null) {
                c = c.withOption("root", root);
            }
            return timeout == null
                    ? c
                    : c.withTimeout(StoreConfig.parseDuration("--timeout", timeout));
        }
        if (config == null) {
            throw new IllegalArgumentException(
                    "name a store: --config FILE [--store NAME], or --connect HOST:PORT");
        }
        if (root != null || timeout != null) {
            throw new IllegalArgumentException(
                    "--root and --timeout go with --connect; with --config set them in the file");
        }
        return named(ConfigFiles.read(config), store, "--store");
    }

    static StoreConfig named(Map<String, StoreConfig> stores, String name, String option) {
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
