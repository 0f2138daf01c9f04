package io.cosid.store.inmemory;

import static io.cosid.store.StoreArguments.requireAtLeast;
import static io.cosid.store.StoreArguments.requireKey;
import static io.cosid.store.StoreArguments.requireSize;

import io.cosid.store.Range;
import io.cosid.store.RangeExhaustedException;
import io.cosid.store.RangeSealedException;
import io.cosid.store.RangeState;
import io.cosid.store.RangeStore;
import io.cosid.store.spi.OperationNames;
import io.cosid.store.spi.RangeHistory;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * RangeStore as the contract states it (docs/contract.md, "RangeStore"). A key that was never used
 * is at {@code next = 0}. This instance remembers what it saw of every node it read or wrote
 * ({@link RangeHistory}), so a node deleted, recreated, lowered or unsealed behind its back is
 * refused instead of silently restarting a counter.
 */
final class InMemoryRangeStore implements RangeStore {

    private static final RangeState FRESH = new RangeState(0, false);

    private final InMemoryBackend backend;
    private final Operations operations;

    /** Per key, what this store saw of its node (docs/contract.md, "Corrupt data"). */
    private final Map<String, RangeHistory> histories = new HashMap<>();

    InMemoryRangeStore(InMemoryBackend backend, Operations operations) {
        this.backend = backend;
        this.operations = operations;
    }

    @Override
    public Range acquire(String key, long size) {
        requireKey(key);
        requireSize(size);
        return operations.run(
                OperationNames.rangeAcquire(key),
                () -> {
                    RangeState state = read(key).orElse(FRESH);
                    if (state.sealed()) {
                        throw new RangeSealedException(key, state.next());
                    }
                    if (size > Long.MAX_VALUE - state.next()) {
                        throw new RangeExhaustedException(key, state.next(), size);
                    }
                    long end = state.next() + size;
                    write(key, new RangeState(end, false));
                    return new Range(key, state.next(), end);
                });
    }

    @Override
    public Optional<RangeState> peek(String key) {
        requireKey(key);
        return operations.run(OperationNames.rangePeek(key), () -> read(key));
    }

    @Override
    public long advance(String key, long atLeast) {
        requireKey(key);
        requireAtLeast(atLeast);
        return operations.run(
                OperationNames.rangeAdvance(key),
                () -> {
                    RangeState state = read(key).orElse(FRESH);
                    if (state.sealed()) {
                        throw new RangeSealedException(key, state.next());
                    }
                    if (atLeast > state.next()) {
                        write(key, new RangeState(atLeast, false));
                        return atLeast;
                    }
                    return state.next();
                });
    }

    @Override
    public long seal(String key) {
        requireKey(key);
        return operations.run(
                OperationNames.rangeSeal(key),
                () -> {
                    RangeState state = read(key).orElse(FRESH);
                    if (!state.sealed()) {
                        write(key, new RangeState(state.next(), true));
                    }
                    return state.next();
                });
    }

    @Override
    public SortedMap<String, RangeState> list() {
        return operations.run(
                OperationNames.rangeList(),
                () -> {
                    SortedMap<String, RangeState> all = new TreeMap<>();
                    backend.ranges.forEach(
                            (key, node) -> all.put(key, node.read("range key '" + key + "'")));
                    return Collections.unmodifiableSortedMap(all);
                });
    }

    /**
     * The stored state, empty for a key nobody created; refuses garbage, nodes recreated or
     * deleted, and a state below the highest this store saw on the node (docs/contract.md, "Corrupt
     * data"). Every state read is remembered, also when the operation then refuses (sealed,
     * exhausted).
     */
    private Optional<RangeState> read(String key) {
        Node<RangeState> node = backend.ranges.get(key);
        RangeHistory history = history(key);
        RangeHistory.Mark known = history.mark();
        if (node == null) {
            if (known != null) {
                throw history.gone(known);
            }
            return Optional.empty();
        }
        RangeState state = node.read("range key '" + key + "'");
        history.seen(
                known, node.generation(), RangeHistory.UNORDERED, state.next(), state.sealed());
        return Optional.of(state);
    }

    private void write(String key, RangeState state) {
        Node<RangeState> node = backend.ranges.get(key);
        Node<RangeState> written =
                node == null ? Node.of(state, backend.nextGeneration()) : node.with(state);
        backend.ranges.put(key, written);
        RangeHistory history = history(key);
        history.seen(
                history.mark(),
                written.generation(),
                RangeHistory.UNORDERED,
                state.next(),
                state.sealed());
    }

    private RangeHistory history(String key) {
        return histories.computeIfAbsent(key, k -> new RangeHistory("range key '" + k + "'"));
    }
}
