package io.cosid.store.zookeeper.internal;

import static io.cosid.store.StoreArguments.requireAtLeast;
import static io.cosid.store.StoreArguments.requireKey;
import static io.cosid.store.StoreArguments.requireSize;

import io.cosid.store.Range;
import io.cosid.store.RangeExhaustedException;
import io.cosid.store.RangeSealedException;
import io.cosid.store.RangeState;
import io.cosid.store.RangeStore;
import io.cosid.store.StoreCorruptedException;
import io.cosid.store.zookeeper.internal.ZkCalls.Reply;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.data.Stat;

/**
 * RangeStore on {@code {root}/range/{key}} (docs/contract.md, "RangeStore").
 *
 * <p>Each key's node is compare-and-set on the data version this store last saw, so an acquire with no
 * writer in between is one {@code setData}: one round trip. A {@code BadVersion} means another writer came
 * first: re-read and try again within the budget. A write whose outcome is unknown (the connection broke
 * after it was sent) is never repeated: the node is re-read and the next range starts after whatever is
 * stored, so the unknown range is at worst a gap. The node's czxid is remembered for good; a node deleted or
 * recreated behind the store's back is refused.
 *
 * <p>Contention costs as little as it can: concurrent acquires on one key inside this store are coalesced
 * into one write ({@link AcquireCoalescer}); against other processes, a lost race is answered by a read pipelined
 * behind the failed write (so a retry costs one round trip, not two) and a randomized backoff scaled to this
 * store's own measured write round trip ({@link ContentionBackoff}), so that contenders spread out instead of
 * turning each other's writes into {@code BadVersion}s; a writer on a streak of back-to-back writes leaves a
 * short gap now and then, so that no contender starves.
 */
@Singleton
final class ZooKeeperRangeStore implements RangeStore {

    /** What this store last saw of a key's node; state is null for an unused parent placeholder. */
    private record Seen(RangeState state, int version, byte[] data) {
    }

    private static final RangeState FRESH = new RangeState(0, false);

    /**
     * The identity of a key's node (czxid) and the highest state this store saw on it, as of the write that
     * made that state (mzxid). Counters never go down and a sealed key never unseals, so a later state below it
     * was written by hand (docs/contract.md, "Corrupt data").
     */
    private record NodeMark(long czxid, long mzxid, long highestNext, boolean sealed) {
    }

    private final ZkCalls zk;
    private final NodePaths paths;
    private final StoreLifecycle lifecycle;
    private final ParentAcls parentAcls;
    private final Map<String, Seen> seen = new ConcurrentHashMap<>();
    /** Per key, the node this store has seen and the highest state on it: never forgotten while the store runs. */
    private final Map<String, NodeMark> marks = new ConcurrentHashMap<>();
    private final Map<String, AcquireCoalescer> coalescers = new ConcurrentHashMap<>();
    private final ContentionBackoff backoff = new ContentionBackoff();
    /** Each key's races with other processes: while it is hot, writes carry a read behind them. */
    private final Map<String, ContentionBackoff.Turns> turns = new ConcurrentHashMap<>();

    @Inject
    ZooKeeperRangeStore(ZkCalls zk, NodePaths paths, StoreLifecycle lifecycle, ParentAcls parentAcls) {
        this.zk = zk;
        this.paths = paths;
        this.lifecycle = lifecycle;
        this.parentAcls = parentAcls;
    }

    @Override
    public Range acquire(String key, long size) {
        requireKey(key);
        requireSize(size);
        Deadline deadline = lifecycle.start("acquire on range key '" + key + "'");
        parentAcls.checkRangeKey(deadline, key);
        return coalescers.computeIfAbsent(key, k -> new AcquireCoalescer((total, d) -> writeRange(k, total, d)))
                .acquire(size, deadline);
    }

    /** One range of {@code size}: compare-and-set until it lands, backing off after each lost race. */
    private Range writeRange(String key, long size, Deadline deadline) {
        ContentionBackoff.Turns turns = this.turns.computeIfAbsent(key, k -> backoff.new Turns());
        for (int lost = 0; ; ) {
            Seen current = seen.get(key);
            if (current == null) {
                current = read(deadline, key);
            }
            RangeState state = stateOf(current);
            if (state.sealed()) {
                throw new RangeSealedException(key, state.next());
            }
            if (size > Long.MAX_VALUE - state.next()) {
                throw new RangeExhaustedException(key, state.next(), size);
            }
            if (lost == 0 && current != null) {
                turns.beforeWrite(current.version(), deadline);
            }
            long started = System.nanoTime();
            Outcome outcome = write(deadline, key, current, new RangeState(state.next() + size, false),
                    lost > 0 || turns.hot(started));
            if (outcome == Outcome.LANDED) {
                backoff.landed(System.nanoTime() - started);
                turns.landed(seen.get(key).version());
                return new Range(key, state.next(), state.next() + size);
            }
            if (outcome == Outcome.LOST_RACE) {
                turns.lost();
                lost = awaitTurn(key, ++lost, deadline);
            }
        }
    }

    /**
     * After a lost race: waits until a write has a chance, and returns the consecutive losses so far. At once
     * if the winner's version (brought by the read behind the failed write) is one after which the winner
     * leaves a gap; else after a random wait, and after a wait longer than a round trip only once a fresh read
     * shows the key quiet (no write meanwhile) or at such a version: a write over a key mid-turn could only
     * lose, and a read is no transaction for the ensemble.
     */
    private int awaitTurn(String key, int lost, Deadline deadline) {
        Seen last = seen.get(key);
        if (last != null && ContentionBackoff.Turns.gapAfter(last.version())) {
            return lost;
        }
        while (backoff.pause(lost, deadline) > backoff.writeNanos() && deadline.remainingNanos() > 0) {
            Seen now = read(deadline, key);
            if (now == null || last == null || now.version() == last.version()
                    || ContentionBackoff.Turns.gapAfter(now.version())) {
                return lost;
            }
            last = now;
            lost++;
        }
        return lost;
    }

    @Override
    public Optional<RangeState> peek(String key) {
        requireKey(key);
        Deadline deadline = lifecycle.start("peek on range key '" + key + "'");
        return Optional.ofNullable(read(deadline, key)).map(Seen::state);
    }

    @Override
    public long advance(String key, long atLeast) {
        requireKey(key);
        requireAtLeast(atLeast);
        Deadline deadline = lifecycle.start("advance on range key '" + key + "'");
        parentAcls.checkRangeKey(deadline, key);
        while (true) {
            Seen current = read(deadline, key);
            RangeState state = stateOf(current);
            if (state.sealed()) {
                throw new RangeSealedException(key, state.next());
            }
            if (atLeast <= state.next()) {
                return state.next();
            }
            if (write(deadline, key, current, new RangeState(Math.max(atLeast, state.next()), false), false)
                    == Outcome.LANDED) {
                return Math.max(atLeast, state.next());
            }
        }
    }

    @Override
    public long seal(String key) {
        requireKey(key);
        Deadline deadline = lifecycle.start("seal on range key '" + key + "'");
        parentAcls.checkRangeKey(deadline, key);
        while (true) {
            Seen current = read(deadline, key);
            RangeState state = stateOf(current);
            if (state.sealed()
                    || write(deadline, key, current, new RangeState(state.next(), true), false) == Outcome.LANDED) {
                return state.next();
            }
        }
    }

    @Override
    public SortedMap<String, RangeState> list() {
        Deadline deadline = lifecycle.start("list of range keys");
        SortedMap<String, RangeState> all = new TreeMap<>();
        List<String> level = List.of(paths.rangeRoot());
        while (!level.isEmpty()) {
            List<String> parents = level;
            List<Reply> children = zk.read(deadline, h -> parents.stream().map(p -> ZkCalls.getChildren(h, p)).toList());
            List<String> next = new ArrayList<>();
            for (int i = 0; i < parents.size(); i++) {
                Reply r = children.get(i);
                String parent = parents.get(i);
                if (r.ok()) {
                    r.children().forEach(c -> next.add(parent + "/" + c));
                } else if (!r.is(Code.NONODE)) {
                    throw zk.unexpected(deadline, r);
                }
            }
            if (!next.isEmpty()) {
                List<Reply> data = zk.read(deadline, h -> next.stream().map(p -> ZkCalls.getData(h, p)).toList());
                for (int i = 0; i < next.size(); i++) {
                    Reply r = data.get(i);
                    String key = next.get(i).substring(paths.rangeRoot().length() + 1);
                    if (r.ok()) {
                        RangeState state = RangeCodec.decode(key, next.get(i), r.data(), r.stat().getVersion());
                        if (state != null) {
                            all.put(key, state);
                        }
                    }
                }
            }
            level = next;
        }
        return Collections.unmodifiableSortedMap(all);
    }

    /** Reads the node, checks its identity, remembers it; null when the key is unused. */
    private Seen read(Deadline deadline, String key) {
        String path = paths.range(key);
        Reply r = zk.read1(deadline, h -> ZkCalls.getData(h, path));
        if (r.is(Code.NONODE)) {
            if (marks.containsKey(key)) {
                throw new StoreCorruptedException("range key '" + key + "' (" + path + ")",
                        "the node this store used was deleted behind its back; restarting it at 0 could reissue values");
            }
            seen.remove(key);
            return null;
        }
        if (!r.ok()) {
            throw zk.unexpected(deadline, r);
        }
        return remember(key, path, r);
    }

    /** Checks a read node's identity and data and remembers it as the state to write over next. */
    private Seen remember(String key, String path, Reply r) {
        RangeState state = RangeCodec.decode(key, path, r.data(), r.stat().getVersion());
        checkNode(key, path, r.stat(), state);
        Seen s = new Seen(state, r.stat().getVersion(), r.data());
        if (state == null) {
            seen.remove(key); // a parent placeholder: the key is unused, but its node exists at version 0
        } else {
            seen.put(key, s);
        }
        return s;
    }

    private static RangeState stateOf(Seen seen) {
        return seen == null || seen.state() == null ? FRESH : seen.state();
    }

    /** How a conditional write ended. */
    private enum Outcome {
        /** It landed: the new state is stored. */
        LANDED,
        /** Another writer came first; what it wrote is already known when the write was followed by a read. */
        LOST_RACE,
        /** The outcome is unknown or a parent was missing: read again before the next try, never resend. */
        RETRY
    }

    /**
     * Writes {@code next} over what was seen (null: no node). With {@code readBehind}, a read of the node is
     * pipelined behind a plain conditional write, so that a lost race already knows the winner's state: the
     * retry costs no extra round trip.
     */
    private Outcome write(Deadline deadline, String key, Seen current, RangeState next, boolean readBehind) {
        String path = paths.range(key);
        byte[] data = RangeCodec.encode(next);
        Reply r;
        Reply behind = null;
        if (current == null) {
            r = zk.once1(deadline, h -> ZkCalls.create(h, path, data, paths.acl()));
        } else if (!ConditionalWrite.needsClaim(current.version())) {
            if (readBehind) {
                List<Reply> replies = zk.once(deadline, h -> List.of(
                        ZkCalls.setData(h, path, data, current.version()), ZkCalls.getData(h, path)));
                r = replies.get(0);
                behind = replies.get(1);
            } else {
                r = zk.setDataNow(deadline, path, data, current.version());
            }
        } else {
            r = ConditionalWrite.sendAtWrap(zk, paths, deadline, path, current.data(), data,
                    "range key '" + key + "' (" + path + ")");
        }
        if (r.ok()) {
            checkNode(key, path, r.stat(), next);
            seen.put(key, new Seen(next, r.stat().getVersion(), data));
            return Outcome.LANDED;
        }
        seen.remove(key);
        if (r.is(Code.NONODE)) {
            // a parent is missing (first key under a new prefix, or the claim root at the wrap); a node that is
            // itself gone is not created again: the read before the next try reports it
            String parent = current == null ? NodePaths.parent(path) : ConditionalWrite.missingParent(r,
                    ConditionalWrite.ops(paths, path, current.version(), current.data(), data));
            if (parent != null) {
                zk.ensurePath(deadline, parent, paths.acl());
            }
            return Outcome.RETRY;
        }
        if (r.is(Code.BADVERSION) || r.is(Code.NODEEXISTS)) {
            // another writer came first; the read behind it (same session, so answered after it) shows what won
            if (behind != null && behind.ok()) {
                remember(key, path, behind);
            }
            return Outcome.LOST_RACE;
        }
        if (r.connectionProblem()) {
            return Outcome.RETRY; // our write may or may not have landed: read again, never resend
        }
        throw zk.unexpected(deadline, r);
    }

    /**
     * The node must be the one this store has always used (same czxid), and its state must not be below the
     * highest this store saw on it: a counter lowered or a key unsealed by hand would hand out values twice.
     * Only a state written after the marked one (larger mzxid) is judged; an older reply that arrives late (a
     * concurrent read in this store) is neither judged nor remembered. {@code state} is null for an unused
     * parent placeholder.
     */
    private void checkNode(String key, String path, Stat stat, RangeState state) {
        long next = state == null ? 0 : state.next();
        boolean sealed = state != null && state.sealed();
        marks.compute(key, (k, known) -> {
            if (known == null) {
                return new NodeMark(stat.getCzxid(), stat.getMzxid(), next, sealed);
            }
            if (known.czxid() != stat.getCzxid()) {
                throw new StoreCorruptedException("range key '" + key + "' (" + path + ")",
                        "the node was recreated behind this store's back (czxid " + stat.getCzxid() + ", expected "
                                + known.czxid() + ")");
            }
            if (stat.getMzxid() <= known.mzxid()) {
                return known;
            }
            if (next < known.highestNext()) {
                throw new StoreCorruptedException("range key '" + key + "' (" + path + ")",
                        "its next value " + next + " is below " + known.highestNext() + ", which this store saw"
                                + " there before: it was lowered behind the store's back, and values from "
                                + next + " on may have been handed out already (raise it again with advance to at"
                                + " least " + known.highestNext() + ")");
            }
            if (known.sealed() && !sealed) {
                throw new StoreCorruptedException("range key '" + key + "' (" + path + ")",
                        "it was sealed at " + known.highestNext() + " and is unsealed now, behind the store's back");
            }
            return new NodeMark(known.czxid(), stat.getMzxid(), next, sealed);
        });
    }
}
