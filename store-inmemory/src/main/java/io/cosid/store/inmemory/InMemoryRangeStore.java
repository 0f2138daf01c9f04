package io.cosid.store.inmemory;

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
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * RangeStore as the contract states it (docs/contract.md, "RangeStore"). A key that was never used
 * is at {@code next = 0}. This instance remembers the generation of every node it read or wrote, so
 * a node deleted or recreated behind its back is refused instead of silently restarting a counter.
 */
final class InMemoryRangeStore implements RangeStore {

    private static final RangeState FRESH = new RangeState(0, false);

    private final InMemoryBackend backend;
    private final Operations operations;

    /** Per key, the node generation this store used and the highest state it saw there. */
    private final Map<String, Mark> marks = new HashMap<>();

    /**
     * Counters never go down and a sealed key never unseals: a later state below the mark was
     * written by hand.
     */
    private record Mark(long generation, long highestNext, boolean sealed) {}

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
     * data").
     */
    private Optional<RangeState> read(String key) {
        Node<RangeState> node = backend.ranges.get(key);
        Mark mark = marks.get(key);
        if (node == null) {
            if (mark != null) {
                throw new StoreCorruptedException(
                        "range key '" + key + "'",
                        "the node this store wrote was deleted behind its back; restarting it at 0"
                                + " could reissue values");
            }
            return Optional.empty();
        }
        if (mark != null && mark.generation() != node.generation()) {
            throw new StoreCorruptedException(
                    "range key '" + key + "'",
                    "the node was recreated behind this store's back (generation "
                            + node.generation()
                            + ", expected "
                            + mark.generation()
                            + ")");
        }
        RangeState state = node.read("range key '" + key + "'");
        if (mark != null && state.next() < mark.highestNext()) {
            throw new StoreCorruptedException(
                    "range key '" + key + "'",
                    "its next value "
                            + state.next()
                            + " is below "
                            + mark.highestNext()
                            + ", which this store saw there before: it was lowered behind the"
                            + " store's back, and values from "
                            + state.next()
                            + " on may have been handed out already (raise it again with advance to"
                            + " at least "
                            + mark.highestNext()
                            + ")");
        }
        if (mark != null && mark.sealed() && !state.sealed()) {
            throw new StoreCorruptedException(
                    "range key '" + key + "'",
                    "it was sealed at "
                            + mark.highestNext()
                            + " and is unsealed now, behind the store's back");
        }
        marks.put(key, new Mark(node.generation(), state.next(), state.sealed()));
        return Optional.of(state);
    }

    private void write(String key, RangeState state) {
        Node<RangeState> node = backend.ranges.get(key);
        Node<RangeState> written =
                node == null ? Node.of(state, backend.nextGeneration()) : node.with(state);
        backend.ranges.put(key, written);
        marks.put(key, new Mark(written.generation(), state.next(), state.sealed()));
    }
}
