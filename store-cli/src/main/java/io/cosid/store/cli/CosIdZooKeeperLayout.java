package io.cosid.store.cli;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

/**
 * What CosId's own ZooKeeper backend left under its root (default {@code /cosid}), read without
 * writing anything:
 *
 * <ul>
 *   <li>segment counters: a Curator {@code DistributedAtomicLong} at {@code
 *       /cosid/{namespace}.{name}} whose 8-byte big-endian value is the largest ID handed out;
 *   <li>machine-id namespaces: {@code /cosid/{namespace}/__counter} (how many machine ids were
 *       handed out, a Curator {@code DistributedAtomicInteger}), {@code __itc_idx/{instanceId}} and
 *       {@code __revert/{machineId}}, whose data is CosId's machine state {@code
 *       machineId|lastTimeStamp}.
 * </ul>
 *
 * <p>A namespace or name with {@code /} puts its nodes below parents without data, which are read
 * through. The {@code -locker} nodes of Curator's promoted locks hold no state and are passed over.
 * Any other node refuses the migration, named, as does a machine-id namespace with {@code /} (a
 * store namespace is one segment); a machine-state node whose data does not parse is reported,
 * never guessed at.
 */
record CosIdZooKeeperLayout(List<Counter> counters, List<MachineNamespace> namespaces) {

    /** A segment counter: its node name, which is the range key, and its value. */
    record Counter(String key, long value, Instant modified) {}

    /** One node naming a machine id, and when it was last written. */
    record MachineNode(String path, int machineId, long lastTimeStamp, Instant modified) {}

    /** A machine-id namespace: the counter's value (0 without one) and every node naming an id. */
    record MachineNamespace(String name, int handedOut, List<MachineNode> nodes) {

        /** The largest machine id CosId may have handed out, or -1 if none. */
        int maxMachineId() {
            int max = handedOut - 1;
            for (MachineNode n : nodes) {
                max = Math.max(max, n.machineId());
            }
            return max;
        }

        /** The latest instant any node of the namespace says an instance was alive. */
        Instant lastSign() {
            Instant last = Instant.EPOCH;
            for (MachineNode n : nodes) {
                Instant stamp = Instant.ofEpochMilli(Math.max(0, n.lastTimeStamp()));
                last = max(last, max(stamp, n.modified()));
            }
            return last;
        }
    }

    private static final String INSTANCES = "__itc_idx";
    private static final String REVERTED = "__revert";
    private static final String MACHINE_COUNTER = "__counter";
    private static final String LOCKER = "-locker";
    private static final Set<String> MACHINE_CHILDREN =
            Set.of(INSTANCES, REVERTED, MACHINE_COUNTER);

    static Instant max(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }

    /**
     * Reads the layout under {@code root}, the whole tree: a namespace or name with {@code /} puts
     * a counter or a machine-id namespace below intermediate nodes.
     *
     * @param passOver children of the root to pass over: a cosid-store store's own nodes, when the
     *     migration's target keeps them under the same root of the same ensemble
     * @throws IllegalStateException if a node's data does not parse (named), or the root is missing
     * @throws ExitCodes.Refused if a node is of no shape understood here, or a machine-id namespace
     *     cannot be a store namespace; every such node is named, and nothing was written
     */
    static CosIdZooKeeperLayout read(CuratorFramework client, String root, Set<String> passOver)
            throws Exception {
        if (client.checkExists().forPath(root) == null) {
            throw new IllegalStateException(
                    "CosId's root "
                            + root
                            + " does not exist on that ZooKeeper: nothing to migrate"
                            + " (is --cosid-root right?)");
        }
        Walk walk = new Walk(client, passOver);
        walk.below(root, "");
        if (!walk.unknown.isEmpty()) {
            throw new ExitCodes.Refused(
                    ExitCodes.REFUSED,
                    "refused: "
                            + String.join("; ", walk.unknown)
                            + ". Only CosId's own nodes can be migrated; move these away or"
                            + " migrate them by hand. Nothing was written.");
        }
        return new CosIdZooKeeperLayout(walk.counters, walk.namespaces);
    }

    /** One reading of the tree: what it found, and every node it could not place. */
    private static final class Walk {
        private final CuratorFramework client;
        private final List<Counter> counters = new ArrayList<>();
        private final List<MachineNamespace> namespaces = new ArrayList<>();
        private final List<String> unknown = new ArrayList<>();

        private final Set<String> passOver;

        Walk(CuratorFramework client, Set<String> passOver) {
            this.client = client;
            this.passOver = passOver;
        }

        /**
         * Places every child of {@code path}, whose name relative to the root is {@code relative}
         * (empty for the root itself).
         */
        void below(String path, String relative) throws Exception {
            for (String child : sorted(client.getChildren().forPath(path))) {
                if (relative.isEmpty() && passOver.contains(child)) {
                    continue; // the target store's own node, under the same root
                }
                String childPath = ZKPaths.makePath(path, child);
                String name = relative.isEmpty() ? child : relative + "/" + child;
                List<String> grandChildren;
                try {
                    grandChildren = client.getChildren().forPath(childPath);
                } catch (KeeperException.NoNodeException deleted) {
                    continue; // deleted while we listed: CosId is at work, the quiet check
                    // catches it on the nodes still there
                }
                if (grandChildren.stream().anyMatch(MACHINE_CHILDREN::contains)) {
                    machineNamespaceAt(childPath, name, grandChildren);
                } else if (!child.endsWith(LOCKER)) {
                    // (a "-locker" node is a Curator lock of a counter's PromotedToLock: ephemeral
                    // lock nodes only, no state to migrate)
                    nodeAt(childPath, name, grandChildren);
                }
            }
        }

        private void machineNamespaceAt(String path, String name, List<String> children)
                throws Exception {
            for (String child : sorted(children)) {
                if (!MACHINE_CHILDREN.contains(child) && !child.equals(MACHINE_COUNTER + LOCKER)) {
                    unknown.add(
                            ZKPaths.makePath(path, child)
                                    + " is not a node of CosId's machine-id layout (__counter,"
                                    + " __counter-locker, __itc_idx, __revert)");
                }
            }
            if (name.indexOf('/') >= 0) {
                unknown.add(
                        "CosId's machine-id namespace '"
                                + name
                                + "' at "
                                + path
                                + " cannot be a cosid-store namespace, which is one segment"
                                + " (no '/')");
                return;
            }
            namespaces.add(machineNamespace(client, path, name));
        }

        private void nodeAt(String path, String name, List<String> children) throws Exception {
            Stat stat = new Stat();
            byte[] data = dataOrNull(client, path, stat);
            if (data == null) {
                return; // deleted while we listed, as above
            }
            if (children.isEmpty() && data.length == 8) {
                counters.add(
                        new Counter(
                                name,
                                ByteBuffer.wrap(data).getLong(),
                                Instant.ofEpochMilli(stat.getMtime())));
            } else if (data.length == 0) {
                // a parent Curator created for a namespace or name with '/': look below it
                below(path, name);
            } else {
                unknown.add(
                        path
                                + " holds "
                                + data.length
                                + " bytes"
                                + (children.isEmpty() ? "" : " and has children")
                                + ", neither a CosId segment counter (8 bytes, no children) nor"
                                + " a machine-id namespace");
            }
        }
    }

    private static MachineNamespace machineNamespace(
            CuratorFramework client, String path, String name) throws Exception {
        int handedOut = 0;
        String counterPath = ZKPaths.makePath(path, MACHINE_COUNTER);
        byte[] counter = dataOrNull(client, counterPath, new Stat());
        if (counter != null) {
            if (counter.length != 4) {
                throw new IllegalStateException(
                        counterPath
                                + " holds "
                                + counter.length
                                + " bytes, not CosId's 4-byte machine-id counter; refusing to"
                                + " guess");
            }
            handedOut = ByteBuffer.wrap(counter).getInt();
        }
        List<MachineNode> nodes = new ArrayList<>();
        for (String dir : List.of(INSTANCES, REVERTED)) {
            String dirPath = ZKPaths.makePath(path, dir);
            List<String> children;
            try {
                children = client.getChildren().forPath(dirPath);
            } catch (KeeperException.NoNodeException absent) {
                continue; // CosId creates these directories on first use
            }
            for (String child : sorted(children)) {
                String nodePath = ZKPaths.makePath(dirPath, child);
                Stat stat = new Stat();
                byte[] data = dataOrNull(client, nodePath, stat);
                if (data == null) {
                    continue; // deleted while we listed: CosId is at work, the quiet check catches
                    // it
                }
                nodes.add(machineNode(nodePath, data, Instant.ofEpochMilli(stat.getMtime())));
            }
        }
        return new MachineNamespace(name, handedOut, nodes);
    }

    private static MachineNode machineNode(String path, byte[] data, Instant modified) {
        String state = new String(data, StandardCharsets.UTF_8);
        int bar = state.indexOf('|');
        try {
            if (bar < 0) {
                throw new NumberFormatException("no '|'");
            }
            int machineId = Integer.parseInt(state.substring(0, bar));
            long last = Long.parseLong(state.substring(bar + 1));
            if (machineId < 0) {
                throw new NumberFormatException("negative machine id");
            }
            return new MachineNode(path, machineId, last, modified);
        } catch (NumberFormatException bad) {
            throw new IllegalStateException(
                    path
                            + " holds '"
                            + state
                            + "', not CosId's machine state machineId|lastTimeStamp ("
                            + bad.getMessage()
                            + "); refusing to guess");
        }
    }

    private static byte @Nullable [] dataOrNull(CuratorFramework client, String path, Stat stat)
            throws Exception {
        try {
            return client.getData().storingStatIn(stat).forPath(path);
        } catch (KeeperException.NoNodeException absent) {
            return null;
        }
    }

    private static List<String> sorted(List<String> names) {
        List<String> copy = new ArrayList<>(names);
        copy.sort(null);
        return copy;
    }
}
