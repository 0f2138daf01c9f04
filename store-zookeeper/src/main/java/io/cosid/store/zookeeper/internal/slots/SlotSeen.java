package io.cosid.store.zookeeper.internal.slots;

import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

/**
 * A slot as this store last saw it. Whether the node exists is kept apart from its data version:
 * every int is a version a node can really have (after 2^32 writes), so none can stand for "no
 * node".
 */
record SlotSeen(
        SlotData data, boolean exists, int version, long czxid, long mtime, byte @Nullable [] raw) {

    /** A slot whose node does not exist yet. */
    static SlotSeen absent() {
        return new SlotSeen(SlotData.NEVER_HELD, false, 0, 0, 0, null);
    }

    static SlotSeen of(SlotData data, Stat stat, byte[] raw) {
        return new SlotSeen(data, true, stat.getVersion(), stat.getCzxid(), stat.getMtime(), raw);
    }

    /** The data as stored; only a slot whose node exists has it. */
    byte[] stored() {
        if (raw == null) {
            throw new IllegalStateException("a slot whose node does not exist has no stored data");
        }
        return raw;
    }
}
