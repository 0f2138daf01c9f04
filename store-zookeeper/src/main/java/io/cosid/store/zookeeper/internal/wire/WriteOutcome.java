package io.cosid.store.zookeeper.internal.wire;

import java.util.List;
import java.util.Objects;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

/**
 * How a conditional write ended ({@link ConditionalWrite}); callers switch over {@link #kind()}.
 *
 * @param kind what happened
 * @param stats when it landed: per change, the node's new Stat, or null where the reply carries
 *     none (ZooKeeper's client drops the Stat of a create inside a multi sent through a chroot)
 * @param reads after a lost race, the reads pipelined behind the write when they were asked for,
 *     one per read in order ({@link ConditionalWrite#sendUntilAnswered}): the winner's state, so a
 *     retry needs no read of its own; else empty
 * @param missingParent when a parent was missing, that parent; else null
 * @param failedOn after a lost race, the node whose version or existence failed the write (or, not
 *     allowed, whose ACL did); else null
 */
public record WriteOutcome(
        Kind kind,
        List<@Nullable Stat> stats,
        List<Reply> reads,
        @Nullable String missingParent,
        @Nullable String failedOn) {

    /** What happened to a conditional write. */
    public enum Kind {
        /** Every change landed, in one transaction. */
        LANDED,
        /**
         * Another writer came first: a node changed since it was read, or a node to create exists.
         */
        LOST_RACE,
        /**
         * The reply was lost: the write may or may not have landed. Only the very same request may
         * be sent again ({@link ConditionalWrite#sendUntilAnswered}); anything else is written from
         * a new read.
         */
        UNKNOWN,
        /** A node to create has no parent ({@link #missingParent()}): nothing was written. */
        PARENT_MISSING,
        /**
         * A node to replace is gone (deleted behind the store's back): nothing was written; a read
         * reports it.
         */
        NODE_GONE,
        /**
         * The store may not write a node of a range key's line ({@link #failedOn()}, its ACL):
         * nothing was written; the key is written without serving seats.
         */
        NOT_ALLOWED
    }

    public static WriteOutcome landed(List<@Nullable Stat> stats) {
        return new WriteOutcome(Kind.LANDED, stats, List.of(), null, null);
    }

    static WriteOutcome lostRace(List<Reply> reads, String failedOn) {
        return new WriteOutcome(Kind.LOST_RACE, List.of(), reads, null, failedOn);
    }

    static WriteOutcome of(Kind kind) {
        return new WriteOutcome(kind, List.of(), List.of(), null, null);
    }

    static WriteOutcome notAllowed(String path) {
        return new WriteOutcome(Kind.NOT_ALLOWED, List.of(), List.of(), null, path);
    }

    static WriteOutcome parentMissing(String parent) {
        return new WriteOutcome(Kind.PARENT_MISSING, List.of(), List.of(), parent, null);
    }

    /** The parent that was missing ({@link Kind#PARENT_MISSING} only). */
    @Override
    public String missingParent() {
        if (missingParent == null) {
            throw new IllegalStateException("a write that " + kind + " missed no parent");
        }
        return missingParent;
    }

    /** After a lost race, the read of the first change's node pipelined behind it; else null. */
    @Nullable Reply behind() {
        return behind(0);
    }

    /**
     * After a lost race, the read of change {@code index}'s node pipelined behind it; else null.
     */
    @Nullable Reply behind(int index) {
        return index < reads.size() ? reads.get(index) : null;
    }

    public boolean landed() {
        return kind == Kind.LANDED;
    }

    /**
     * The new Stat of change {@code index} of a landed write; null where the reply carries none.
     */
    public @Nullable Stat stat(int index) {
        if (!landed()) {
            throw new IllegalStateException("a write that " + kind + " has no Stat");
        }
        return stats.get(index);
    }

    /**
     * Any Stat the landed write's reply carries: all its changes share one transaction (zxid and
     * time).
     */
    public @Nullable Stat anyStat() {
        return stats.stream().filter(Objects::nonNull).findFirst().orElse(null);
    }
}
