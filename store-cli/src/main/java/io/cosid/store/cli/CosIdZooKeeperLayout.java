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
 * <p>Nodes of neither shape (and the {@code -locker} nodes of Curator's promoted locks) are left
 * alone. A machine-state node whose data does not parse is reported, never guessed at.
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
    private static final Set<String> MACHINE_CHILDREN =
            Set.of(INSTANCES, REVERTED, MACHINE_COUNTER);

    static Instant max(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }

    /**
     * Reads the layout under {@code root}.
     *
     * @throws IllegalStateException if a node's data does not parse (named), or the root is missing
     */
    static CosIdZooKeeperLayout read(CuratorFramework client, String root) throws Exception {
        if (client.checkExists().forPath(root) == null) {
            throw new IllegalStateException(
                    "CosId's root "
                            + root
                            + " does not exist on that ZooKeeper: nothing to migrate"
                            + " (is --cosid-root right?)");
        }
        List<Counter> counters = new ArrayList<>();
        List<MachineNamespace> namespaces = new ArrayList<>();
        for (String child : sorted(client.getChildren().forPath(root))) {
            String path = ZKPaths.makePath(root, child);
            List<String> grandChildren = client.getChildren().forPath(path);
            if (grandChildren.stream().anyMatch(MACHINE_CHILDREN::contains)) {
                namespaces.add(machineNamespace(client, path, child));
                continue;
            }
            Stat stat = new Stat();
            byte[] data = client.getData().storingStatIn(stat).forPath(path);
            if (!child.endsWith("-locker")
                    && grandChildren.isEmpty()
                    && data != null
                    && data.length == 8) {
                counters.add(
                        new Counter(
                                child,
                                ByteBuffer.wrap(data).getLong(),
                                Instant.ofEpochMilli(stat.getMtime())));
            }
        }
        return new CosIdZooKeeperLayout(counters, namespaces);
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

    private static byte[] dataOrNull(CuratorFramework client, String path, Stat stat)
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
