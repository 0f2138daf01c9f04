package io.cosid.store.zookeeper.internal;

import java.util.List;
import java.util.Objects;
import org.apache.zookeeper.data.Stat;

/**
 * How a conditional write ended ({@link ConditionalWrite}); callers switch over {@link #kind()}.
 *
 * @param kind what happened
 * @param stats when it landed: per change, the node's new Stat, or null where the reply carries
 *     none (ZooKeeper's client drops the Stat of a create inside a multi sent through a chroot)
 * @param behind after a lost race, the read pipelined behind the write when one was asked for and
 *     got through: the winner's state, so a retry needs no read of its own; else null
 * @param missingParent when a parent was missing, that parent; else null
 */
record WriteOutcome(Kind kind, List<Stat> stats, Reply behind, String missingParent) {

    /** What happened to a conditional write. */
    enum Kind {
        /** Every change landed, in one transaction. */
        LANDED,
        /**
         * Another writer came first: a node changed since it was read, or a node to create exists.
         */
        LOST_RACE,
        /**
         * The reply was lost: the write may or may not have landed. Settle it by a read; never
         * resend it.
         */
        UNKNOWN,
        /** A node to create has no parent ({@link #missingParent()}): nothing was written. */
        PARENT_MISSING,
        /**
         * A node to replace is gone (deleted behind the store's back): nothing was written; a read
         * reports it.
         */
        NODE_GONE
    }

    static WriteOutcome landed(List<Stat> stats) {
        return new WriteOutcome(Kind.LANDED, stats, null, null);
    }

    static WriteOutcome lostRace(Reply behind) {
        return new WriteOutcome(Kind.LOST_RACE, List.of(), behind, null);
    }

    static WriteOutcome of(Kind kind) {
        return new WriteOutcome(kind, List.of(), null, null);
    }

    static WriteOutcome parentMissing(String parent) {
        return new WriteOutcome(Kind.PARENT_MISSING, List.of(), null, parent);
    }

    boolean landed() {
        return kind == Kind.LANDED;
    }

    /**
     * The new Stat of change {@code index} of a landed write; null where the reply carries none.
     */
    Stat stat(int index) {
        if (!landed()) {
            throw new IllegalStateException("a write that " + kind + " has no Stat");
        }
        return stats.get(index);
    }

    /**
     * Any Stat the landed write's reply carries: all its changes share one transaction (zxid and
     * time).
     */
    Stat anyStat() {
        return stats.stream().filter(Objects::nonNull).findFirst().orElse(null);
    }
}
