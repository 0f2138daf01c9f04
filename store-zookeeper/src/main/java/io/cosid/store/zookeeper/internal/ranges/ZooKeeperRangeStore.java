package io.cosid.store.zookeeper.internal.ranges;

import static io.cosid.store.StoreArguments.requireAtLeast;
import static io.cosid.store.StoreArguments.requireKey;
import static io.cosid.store.StoreArguments.requireSize;

import io.cosid.store.Range;
import io.cosid.store.RangeSealedException;
import io.cosid.store.RangeState;
import io.cosid.store.RangeStore;
import io.cosid.store.StoreObserver.Operation;
import io.cosid.store.spi.Deadline;
import io.cosid.store.spi.OperationNames;
import io.cosid.store.zookeeper.internal.ranges.RangeKey.Seen;
import io.cosid.store.zookeeper.internal.wire.ConditionalWrite;
import io.cosid.store.zookeeper.internal.wire.Failures;
import io.cosid.store.zookeeper.internal.wire.NodePaths;
import io.cosid.store.zookeeper.internal.wire.Observations;
import io.cosid.store.zookeeper.internal.wire.ParentAcls;
import io.cosid.store.zookeeper.internal.wire.PathCreator;
import io.cosid.store.zookeeper.internal.wire.Reads;
import io.cosid.store.zookeeper.internal.wire.StoreLifecycle;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * RangeStore on {@code {root}/range/{key}} (docs/contract.md, "RangeStore").
 *
 * <p>Each key's node is compare-and-set on the data version this store last saw, with a check of
 * the key's line ({@link Seats}) in the same multi: an acquire with no writer in between is one
 * round trip and one request. A write whose outcome is unknown (the connection broke after it was
 * sent) is never repeated: the node is re-read and the next range starts after whatever is stored,
 * so the unknown range is at worst a gap. The node's czxid is remembered for good; a node deleted
 * or recreated behind the store's back is refused.
 *
 * <p>Concurrent acquires on one key inside this store are coalesced into one write ({@link
 * AcquireCoalescer}); across processes, every range write also serves the writers waiting in the
 * key's line, so the write that lands serves them all ({@link RangeWrite}), through its {@link
 * RangeKey}.
 */
@Singleton
public final class ZooKeeperRangeStore implements RangeStore {

    private static final RangeState FRESH = new RangeState(0, false);

    /**
     * The shortest time a result waits for its owner before its writer deletes it; at least four of
     * this store's timeouts. An owner that comes later finds its range gone, a gap.
     */
    private static final long MIN_LEFTOVER_NANOS = TimeUnit.SECONDS.toNanos(2);

    private final NodePaths paths;
    private final StoreLifecycle lifecycle;
    private final ParentAcls parentAcls;
    private final RangeKey.Shared shared;
    private final Map<String, RangeKey> keys = new ConcurrentHashMap<>();

    @Inject
    ZooKeeperRangeStore(
            Reads reads,
            ConditionalWrite conditionalWrite,
            PathCreator pathCreator,
            Failures failures,
            NodePaths paths,
            StoreLifecycle lifecycle,
            ParentAcls parentAcls,
            Seats seats,
            Observations observations,
            RangeWaste waste,
            RangeCounts counts) {
        this.paths = paths;
        this.lifecycle = lifecycle;
        this.parentAcls = parentAcls;
        this.shared =
                new RangeKey.Shared(
                        reads,
                        conditionalWrite,
                        pathCreator,
                        failures,
                        seats,
                        observations,
                        counts,
                        new WriteLatency(),
                        waste,
                        Math.max(MIN_LEFTOVER_NANOS, 4 * lifecycle.timeout().toNanos()),
                        lifecycle.ticker());
    }

    private RangeKey key(String key) {
        return keys.computeIfAbsent(
                key,
                k ->
                        new RangeKey(
                                k,
                                paths.range(k),
                                paths.line(k),
                                shared,
                                (demand, d) ->
                                        new RangeWrite(
                                                        Objects.requireNonNull(keys.get(k)),
                                                        demand,
                                                        d)
                                                .run(),
                                shared.waste()::givenUp));
    }

    @Override
    public Range acquire(String key, long size) {
        requireKey(key);
        requireSize(size);
        Deadline deadline =
                lifecycle.start(Operation.RANGE_ACQUIRE, OperationNames.rangeAcquire(key));
        parentAcls.checkRangeKey(deadline, key);
        return key(key).coalescer().acquire(size, deadline);
    }

    @Override
    public Optional<RangeState> peek(String key) {
        requireKey(key);
        Deadline deadline = lifecycle.start(Operation.RANGE_PEEK, OperationNames.rangePeek(key));
        return Optional.ofNullable(key(key).read(deadline, null).node()).map(Seen::state);
    }

    @Override
    public long advance(String key, long atLeast) {
        requireKey(key);
        requireAtLeast(atLeast);
        return change(
                key,
                Operation.RANGE_ADVANCE,
                OperationNames.rangeAdvance(key),
                now -> {
                    if (now.sealed()) {
                        throw new RangeSealedException(key, now.next());
                    }
                    return atLeast <= now.next() ? null : new RangeState(atLeast, false);
                });
    }

    @Override
    public long seal(String key) {
        requireKey(key);
        return change(
                key,
                Operation.RANGE_SEAL,
                OperationNames.rangeSeal(key),
                now -> now.sealed() ? null : new RangeState(now.next(), true));
    }

    /**
     * Reads the key and writes what {@code change} makes of its state (null: nothing to write),
     * until a write lands; the key's next value after it. Seats are not served: an advance or a
     * seal fails the writes in flight, which read and serve them.
     */
    private long change(
            String key, Operation op, String name, UnaryOperator<@Nullable RangeState> change) {
        Deadline deadline = lifecycle.start(op, name);
        parentAcls.checkRangeKey(deadline, key);
        RangeKey state = key(key);
        while (deadline.hasTimeLeft()) {
            Seen current = state.read(deadline, null).node();
            RangeState now = stateOf(current);
            RangeState next = change.apply(now);
            if (next == null) {
                return now.next();
            }
            if (state.write(deadline, current, next, RangeKey.Serving.NOBODY, null, () -> {})
                    .landed()) {
                return next.next();
            }
        }
        throw deadline.expired(null);
    }

    @Override
    public SortedMap<String, RangeState> list() {
        Deadline deadline = lifecycle.start(Operation.RANGE_LIST, OperationNames.rangeList());
        SortedMap<String, RangeState> all = new TreeMap<>();
        String prefix = paths.rangeRoot() + "/";
        shared.reads()
                .tree(deadline, paths.rangeRoot())
                .forEach(
                        (path, r) -> {
                            String key = path.substring(prefix.length());
                            RangeState state =
                                    RangeCodec.decode(key, path, r.data(), r.stat().getVersion());
                            if (state != null) {
                                all.put(key, state);
                            }
                        });
        return Collections.unmodifiableSortedMap(all);
    }

    static RangeState stateOf(@Nullable Seen seen) {
        return seen == null || seen.state() == null ? FRESH : seen.state();
    }
}
