package io.cosid.store.zookeeper.internal.slots;

import io.cosid.store.SlotView;
import io.cosid.store.StoreCorruptedException;
import io.cosid.store.spi.Deadline;
import io.cosid.store.spi.SlotHistory;
import io.cosid.store.zookeeper.internal.wire.Failures;
import io.cosid.store.zookeeper.internal.wire.NodePaths;
import io.cosid.store.zookeeper.internal.wire.Reads;
import io.cosid.store.zookeeper.internal.wire.Reply;
import io.cosid.store.zookeeper.internal.wire.Requests;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.data.Stat;

/**
 * Reading slots: pipelined read-only multis of slot nodes, and every slot read or written checked
 * against what this store saw of it before ({@link SlotHistory}), so that a slot deleted, lowered
 * or rewound behind the store's back is refused rather than used.
 */
@Singleton
final class SlotReads {

    static final int MAX_BATCH = 256;

    private final Reads reads;
    private final Failures failures;
    private final NodePaths paths;

    /**
     * Every slot this store read or wrote, as it last saw it: never forgotten while the store runs.
     */
    private final Map<String, SlotMark> marks = new ConcurrentHashMap<>();

    @Inject
    SlotReads(Reads reads, Failures failures, NodePaths paths) {
        this.reads = reads;
        this.failures = failures;
        this.paths = paths;
    }

    /** Whether this store ever read or wrote slot {@code slot} of {@code ns}. */
    boolean saw(String ns, int slot) {
        return marks.containsKey(paths.slot(ns, slot));
    }

    /** Reads one slot node. */
    Reply readOne(Deadline deadline, String ns, int slot) {
        String path = paths.slot(ns, slot);
        return reads.one(deadline, h -> Requests.getData(h, path));
    }

    /** Reads one slot node and checks it ({@link #decode}). */
    SlotSeen read(Deadline deadline, String ns, int slot) {
        return decode(deadline, ns, slot, readOne(deadline, ns, slot));
    }

    /**
     * Reads slot nodes in one round trip: read-only multis of at most {@value #MAX_BATCH} slots
     * each, pipelined (per-operation results: a missing node is not an error).
     */
    List<Op> slotReads(String ns, List<Integer> slots) {
        return slots.stream().map(s -> Op.getData(paths.slot(ns, s))).toList();
    }

    Map<Integer, Reply> readSlots(Deadline deadline, String ns, List<Integer> slots) {
        List<List<Integer>> chunks = new ArrayList<>();
        for (int from = 0; from < slots.size(); from += MAX_BATCH) {
            chunks.add(slots.subList(from, Math.min(from + MAX_BATCH, slots.size())));
        }
        List<List<Op>> reads = chunks.stream().map(chunk -> slotReads(ns, chunk)).toList();
        List<Reply> replies =
                this.reads.all(
                        deadline, h -> reads.stream().map(ops -> Requests.multi(h, ops)).toList());
        Map<Integer, Reply> bySlot = new TreeMap<>();
        for (int c = 0; c < chunks.size(); c++) {
            bySlot.putAll(slotReplies(deadline, ns, chunks.get(c), replies.get(c)));
        }
        return bySlot;
    }

    /** The reply of one read-only multi of {@code slots}, slot by slot. */
    private Map<Integer, Reply> slotReplies(
            Deadline deadline, String ns, List<Integer> slots, Reply r) {
        // A read-only multi answers per operation; its overall code is the first operation's
        // error (a missing slot node), so only the absence of per-operation results is a failure.
        if (r.results() == null || r.results().size() != slots.size()) {
            throw failures.unexpected(deadline, r);
        }
        Map<Integer, Reply> bySlot = new TreeMap<>();
        for (int i = 0; i < slots.size(); i++) {
            bySlot.put(
                    slots.get(i), Reply.ofRead(paths.slot(ns, slots.get(i)), r.results().get(i)));
        }
        return bySlot;
    }

    /**
     * A slot as read, checked against what this store saw of it before: a node deleted behind the
     * store's back, or changed against {@link SlotHistory}, is refused. A missing node this store
     * saw is read once more before it is refused: the first reply may have been sent before this
     * store's own write created the node.
     */
    SlotSeen decode(Deadline deadline, String ns, int slot, Reply reply) {
        if (reply.is(Code.NONODE)) {
            String path = paths.slot(ns, slot);
            SlotMark mark = marks.get(path);
            if (mark == null) {
                return SlotSeen.absent();
            }
            Reply again = reads.one(deadline, h -> Requests.getData(h, path));
            if (again.is(Code.NONODE)) {
                throw new StoreCorruptedException(
                        location(ns, slot),
                        "the slot was deleted behind this store's back"
                                + " after it saw fence "
                                + mark.view().fence()
                                + "; starting it over at fence 1 could hand"
                                + " out a fence and a window twice ("
                                + repair(mark)
                                + ")");
            }
            reply = again;
        }
        if (!reply.ok()) {
            throw new StoreCorruptedException(
                    location(ns, slot), "reading it failed with " + reply.code());
        }
        SlotData data = SlotData.decode(location(ns, slot), reply.data());
        check(ns, slot, data, reply.stat());
        return SlotSeen.of(data, reply.stat(), reply.data());
    }

    /**
     * A slot state this store saw (read or written) as of the write that made it (mzxid), and the
     * view it gives. Only a state written after the mark is judged; an older reply arriving late is
     * neither judged nor kept.
     */
    private record SlotMark(long mzxid, SlotView view) {}

    void check(String ns, int slot, SlotData data, Stat stat) {
        SlotView view = data.view(ns, slot, stat.getMtime());
        marks.compute(
                paths.slot(ns, slot),
                (path, known) -> {
                    if (known != null && stat.getMzxid() <= known.mzxid()) {
                        return known;
                    }
                    String why = known == null ? null : SlotHistory.whyNotAfter(known.view(), view);
                    if (why != null) {
                        throw new StoreCorruptedException(
                                location(ns, slot),
                                why
                                        + " behind this store's back; using it"
                                        + " could hand out a fence and a window twice ("
                                        + repair(known)
                                        + ")");
                    }
                    return new SlotMark(stat.getMzxid(), view);
                });
    }

    private static String repair(SlotMark mark) {
        return SlotHistory.repair(mark.view());
    }

    /** How errors name a slot. */
    String location(String ns, int slot) {
        return "slot " + slot + " of namespace '" + ns + "' (" + paths.slot(ns, slot) + ")";
    }
}
