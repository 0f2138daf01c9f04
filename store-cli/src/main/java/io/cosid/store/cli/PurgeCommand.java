package io.cosid.store.cli;

import io.cosid.store.Namespace;
import io.cosid.store.Store;
import io.cosid.store.StoreAdmin;
import io.cosid.store.StoreConfig;
import io.cosid.store.Stores;
import io.cosid.store.jdbc.JdbcStores;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code purge}: delete a store's nodes, only with every instance stopped and no lease unexpired.
 */
@Command(
        name = "purge",
        mixinStandardHelpOptions = true,
        description = {
            "Delete every range key, namespace and slot of a store (after a migration).",
            "Needs --confirm-all-instances-stopped, and refuses while any lease is unexpired."
        })
final class PurgeCommand implements Callable<Integer> {

    @Mixin StoreSelection selection;

    @Option(
            names = "--confirm-all-instances-stopped",
            description = "Confirm that no instance uses this store any more.")
    boolean confirmed;

    @Mixin JsonOption output;

    @Spec CommandSpec spec;

    @Override
    public Integer call() {
        StoreConfig config = StoreSelection.requireLasting(selection.config(), "purge");
        String name = where(config);
        if (!confirmed) {
            throw new ExitCodes.Refused(
                    ExitCodes.REFUSED,
                    "refused: purge deletes every range key, namespace and"
                            + " slot of "
                            + name
                            + "; a running instance would then fail, and a new one would start"
                            + " counters and fences over. Stop every instance, then add"
                            + " --confirm-all-instances-stopped");
        }
        try (Store store = Stores.open(config)) {
            List<String> held = new ArrayList<>();
            List<Namespace> namespaces = store.slots().namespaces();
            for (Namespace ns : namespaces) {
                held.addAll(Views.held(ns.name(), store.slots().inspect(ns.name())));
            }
            if (!held.isEmpty()) {
                throw new ExitCodes.Refused(
                        ExitCodes.REFUSED,
                        "refused: leases are unexpired, so instances may still"
                                + " be running. Nothing was deleted. Held: "
                                + String.join("; ", held));
            }
            int keys = store.ranges().list().size();
            if (keys == 0 && namespaces.isEmpty()) {
                throw nothingToPurge(config, name);
            }

            StoreAdmin admin =
                    store.admin()
                            .orElseThrow(
                                    () ->
                                            new ExitCodes.Refused(
                                                    ExitCodes.FAILED,
                                                    "store type "
                                                            + store.type()
                                                            + " cannot be purged"));
            admin.purge();
            output.print(
                    spec.commandLine().getOut(),
                    "purged "
                            + name
                            + ": "
                            + keys
                            + " range key(s), "
                            + namespaces.size()
                            + " namespace(s)",
                    Map.of("purged", name, "rangeKeys", keys, "namespaces", namespaces.size()));
            return ExitCodes.OK;
        }
    }

    /** An empty store: probably not the one the user meant. Nothing was deleted. */
    private static ExitCodes.Refused nothingToPurge(StoreConfig config, String name) {
        return new ExitCodes.Refused(
                ExitCodes.NOT_FOUND,
                "nothing to purge: "
                        + name
                        + " has no range key and no namespace ("
                        + (config.type().equals("jdbc")
                                ? "a mistyped --jdbc-url, database or table prefix?"
                                : "a mistyped --root or store name?")
                        + "). Nothing was deleted.");
    }

    /**
     * What a purge deletes, in the user's terms: the root and the servers of a ZooKeeper store (the
     * store's name is the tool's own with {@code --connect}), or the named store of a file.
     */
    static String where(StoreConfig config) {
        if (config.type().equals("jdbc")) {
            String url = config.options().get("url");
            String place =
                    "tables "
                            + config.options().getOrDefault("tablePrefix", "cosid_")
                            + "*"
                            + (url == null ? "" : " on " + JdbcStores.withoutSecrets(url));
            return StoreSelection.isToolStore(config)
                    ? place
                    : "store " + config.name() + " (" + place + ")";
        }
        String root = config.options().getOrDefault("root", StoreSelection.DEFAULT_ROOT);
        String servers = config.options().get("connectString");
        String place = "root " + root + (servers == null ? "" : " on " + servers);
        return StoreSelection.isToolStore(config)
                ? place
                : "store " + config.name() + " (" + place + ")";
    }
}
