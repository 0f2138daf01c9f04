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
import io.cosid.store.spi.OperationNames;
import io.cosid.store.zookeeper.internal.RangeKeyState.Seen;
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
 * <p>Each key's node is compare-and-set on the data version this store last saw, so an acquire with
 * no writer in between is one {@code setData}: one round trip. A {@code BadVersion} means another
 * writer came first: re-read and try again within the budget. A write whose outcome is unknown (the
 * connection broke after it was sent) is never repeated: the node is re-read and the next range
 * starts after whatever is stored, so the unknown range is at worst a gap. The node's czxid is
 * remembered for good; a node deleted or recreated behind the store's back is refused.
 *
 * <p>Contention costs as little as it can: concurrent acquires on one key inside this store are
 * coalesced into one write ({@link AcquireCoalescer}); against other processes, a lost race is
 * answered by a read pipelined behind the failed write (so a retry costs one round trip, not two)
 * and a randomized backoff scaled to this store's own measured write round trip ({@link
 * ContentionBackoff}), so that contenders spread out instead of turning each other's writes into
 * {@code BadVersion}s; a writer on a streak of back-to-back writes leaves a short gap now and then,
 * so that no contender starves.
 */
@Singleton
final class ZooKeeperRangeStore implements RangeStore {

    private static final RangeState FRESH = new RangeState(0, false);

    private final Reads reads;
    private final ConditionalWrite conditionalWrite;
    private final PathCreator pathCreator;
    private final Failures failures;
    private final NodePaths paths;
    private final StoreLifecycle lifecycle;
    private final ParentAcls parentAcls;
    private final ContentionBackoff backoff = new ContentionBackoff();
    private final Map<String, RangeKeyState> keys = new ConcurrentHashMap<>();

    @Inject
    ZooKeeperRangeStore(
            Reads reads,
            ConditionalWrite conditionalWrite,
            PathCreator pathCreator,
            Failures failures,
            NodePaths paths,
            StoreLifecycle lifecycle,
            ParentAcls parentAcls) {
        this.reads = reads;
        this.conditionalWrite = conditionalWrite;
        this.pathCreator = pathCreator;
        this.failures = failures;
        this.paths = paths;
        this.lifecycle = lifecycle;
        this.parentAcls = parentAcls;
    }

    private RangeKeyState key(String key) {
        return keys.computeIfAbsent(
                key,
                k ->
                        new RangeKeyState(
                                k,
                                paths.range(k),
                                (total, d) -> writeRange(keys.get(k), total, d),
                                backoff.new Turns()));
    }

    @Override
    public Range acquire(String key, long size) {
        requireKey(key);
        requireSize(size);
        Deadline deadline = lifecycle.start(OperationNames.rangeAcquire(key));
        parentAcls.checkRangeKey(deadline, key);
        return key(key).coalescer().acquire(size, deadline);
    }

    /**
     * One range of {@code size}: compare-and-set until it lands, backing off after each lost race.
     */
    private Range writeRange(RangeKeyState key, long size, Deadline deadline) {
        ContentionBackoff.Turns turns = key.turns();
        int lost = 0;
        while (deadline.hasTimeLeft()) {
            Seen current = key.seen();
            if (current == null) {
                current = read(deadline, key);
            }
            RangeState state = stateOf(current);
            if (state.sealed()) {
                throw new RangeSealedException(key.key(), state.next());
            }
            if (size > Long.MAX_VALUE - state.next()) {
                throw new RangeExhaustedException(key.key(), state.next(), size);
            }
            if (lost == 0 && current != null) {
                turns.beforeWrite(current.version(), deadline);
            }
            long started = System.nanoTime();
            RangeState next = new RangeState(state.next() + size, false);
            WriteOutcome outcome =
                    write(deadline, key, current, next, lost > 0 || turns.hot(started));
            switch (outcome.kind()) {
                case LANDED -> {
                    backoff.landed(System.nanoTime() - started);
                    turns.landed(key.seen().version());
                    return new Range(key.key(), state.next(), next.next());
                }
                case LOST_RACE -> {
                    turns.lost();
                    lost = awaitTurn(key, lost + 1, deadline);
                }
                case UNKNOWN, PARENT_MISSING, NODE_GONE -> {
                    // read again before the next try; an unknown write is never resent, so its
                    // range is a gap
                }
            }
        }
        throw deadline.expired(null);
    }

    /**
     * After a lost race: waits until a write has a chance, and returns the consecutive losses so
     * far. At once if the winner's version (brought by the read behind the failed write) is one
     * after which the winner leaves a gap; else after a random wait, and after a wait longer than a
     * round trip only once a fresh read shows the key quiet (no write meanwhile) or at such a
     * version: a write over a key mid-turn could only lose, and a read is no transaction for the
     * ensemble.
     */
    private int awaitTurn(RangeKeyState key, int lost, Deadline deadline) {
        Seen last = key.seen();
        if (last != null && ContentionBackoff.Turns.gapAfter(last.version())) {
            return lost;
        }
        while (backoff.pause(lost, deadline) > backoff.writeNanos() && deadline.hasTimeLeft()) {
            Seen now = read(deadline, key);
            if (now == null
                    || last == null
                    || now.version() == last.version()
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
        Deadline deadline = lifecycle.start(OperationNames.rangePeek(key));
        return Optional.ofNullable(read(deadline, key(key))).map(Seen::state);
    }

    @Override
    public long advance(String key, long atLeast) {
        requireKey(key);
        requireAtLeast(atLeast);
        Deadline deadline = lifecycle.start(OperationNames.rangeAdvance(key));
        parentAcls.checkRangeKey(deadline, key);
        RangeKeyState state = key(key);
        while (deadline.hasTimeLeft()) {
            Seen current = read(deadline, state);
            RangeState now = stateOf(current);
            if (now.sealed()) {
                throw new RangeSealedException(key, now.next());
            }
            if (atLeast <= now.next()) {
                return now.next();
            }
            if (write(deadline, state, current, new RangeState(atLeast, false), false).landed()) {
                return atLeast;
            }
        }
        throw deadline.expired(null);
    }

    @Override
    public long seal(String key) {
        requireKey(key);
        Deadline deadline = lifecycle.start(OperationNames.rangeSeal(key));
        parentAcls.checkRangeKey(deadline, key);
        RangeKeyState state = key(key);
        while (deadline.hasTimeLeft()) {
            Seen current = read(deadline, state);
            RangeState now = stateOf(current);
            if (now.sealed()
                    || write(deadline, state, current, new RangeState(now.next(), true), false)
                            .landed()) {
                return now.next();
            }
        }
        throw deadline.expired(null);
    }

    @Override
    public SortedMap<String, RangeState> list() {
        Deadline deadline = lifecycle.start(OperationNames.rangeList());
        SortedMap<String, RangeState> all = new TreeMap<>();
        List<String> level = List.of(paths.rangeRoot());
        while (!level.isEmpty()) {
            List<String> parents = level;
            List<Reply> children =
                    reads.all(
                            deadline,
                            h -> parents.stream().map(p -> Requests.getChildren(h, p)).toList());
            List<String> next = new ArrayList<>();
            for (int i = 0; i < parents.size(); i++) {
                Reply r = children.get(i);
                String parent = parents.get(i);
                if (r.ok()) {
                    r.children().forEach(c -> next.add(parent + "/" + c));
                } else if (!r.is(Code.NONODE)) {
                    throw failures.unexpected(deadline, r);
                }
            }
            if (!next.isEmpty()) {
                List<Reply> data =
                        reads.all(
                                deadline,
                                h -> next.stream().map(p -> Requests.getData(h, p)).toList());
                for (int i = 0; i < next.size(); i++) {
                    Reply r = data.get(i);
                    String key = next.get(i).substring(paths.rangeRoot().length() + 1);
                    if (r.ok()) {
                        RangeState state =
                                RangeCodec.decode(
                                        key, next.get(i), r.data(), r.stat().getVersion());
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
    private Seen read(Deadline deadline, RangeKeyState key) {
        Reply r = reads.one(deadline, h -> Requests.getData(h, key.path()));
        if (r.is(Code.NONODE)) {
            if (key.known()) {
                throw new StoreCorruptedException(
                        key.location(),
                        "the node this store used was deleted behind"
                                + " its back; restarting it at 0 could reissue values");
            }
            key.forget();
            return null;
        }
        if (!r.ok()) {
            throw failures.unexpected(deadline, r);
        }
        return remember(key, r);
    }

    /** Checks a read node's identity and data and remembers it as the state to write over next. */
    private Seen remember(RangeKeyState key, Reply r) {
        RangeState state =
                RangeCodec.decode(key.key(), key.path(), r.data(), r.stat().getVersion());
        key.check(r.stat(), state);
        Seen seen = new Seen(state, r.stat().getVersion(), r.data());
        key.see(seen);
        return seen;
    }

    private static RangeState stateOf(Seen seen) {
        return seen == null || seen.state() == null ? FRESH : seen.state();
    }

    /**
     * Writes {@code next} over what was seen (null: no node). With {@code readBehind}, a lost race
     * already knows the winner's state: the retry costs no extra round trip. After any outcome but
     * a landed write, the next try reads first.
     */
    private WriteOutcome write(
            Deadline deadline,
            RangeKeyState key,
            Seen current,
            RangeState next,
            boolean readBehind) {
        byte[] data = RangeCodec.encode(next);
        NodeChange change =
                current == null
                        ? NodeChange.create(key.path(), data)
                        : NodeChange.replace(key.path(), current.version(), current.data(), data);
        WriteOutcome outcome =
                readBehind
                        ? conditionalWrite.sendWithReadBehind(deadline, key.location(), change)
                        : conditionalWrite.send(deadline, key.location(), change);
        key.forget();
        switch (outcome.kind()) {
            case LANDED -> {
                Stat stat = outcome.stat(0);
                key.check(stat, next);
                key.see(new Seen(next, stat.getVersion(), data));
            }
            case LOST_RACE -> {
                // the read behind the failed write (same session, so answered after it) shows what
                // won
                if (outcome.behind() != null) {
                    remember(key, outcome.behind());
                }
            }
            // the first key under a new prefix, or the claim root at the wrap; a node that is
            // itself gone is not created again: the read before the next try reports it
            case PARENT_MISSING -> pathCreator.ensure(deadline, outcome.missingParent());
            case UNKNOWN, NODE_GONE -> {
                // our write may or may not have landed: read again, never resend
            }
        }
        return outcome;
    }
}
