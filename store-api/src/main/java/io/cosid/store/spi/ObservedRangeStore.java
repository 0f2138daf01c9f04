package io.cosid.store.spi;

import io.cosid.store.Range;
import io.cosid.store.RangeState;
import io.cosid.store.RangeStore;
import io.cosid.store.StoreObserver.Operation;
import java.util.Optional;
import java.util.SortedMap;

/** A range store whose operations are reported ({@link ObservedStore}). */
final class ObservedRangeStore implements RangeStore {

    private final RangeStore ranges;
    private final Reporter reporter;

    ObservedRangeStore(RangeStore ranges, Reporter reporter) {
        this.ranges = ranges;
        this.reporter = reporter;
    }

    @Override
    public Range acquire(String key, long size) {
        return reporter.run(Operation.RANGE_ACQUIRE, key, () -> ranges.acquire(key, size));
    }

    @Override
    public Optional<RangeState> peek(String key) {
        return reporter.run(Operation.RANGE_PEEK, key, () -> ranges.peek(key));
    }

    @Override
    public long advance(String key, long atLeast) {
        return reporter.run(Operation.RANGE_ADVANCE, key, () -> ranges.advance(key, atLeast));
    }

    @Override
    public long seal(String key) {
        return reporter.run(Operation.RANGE_SEAL, key, () -> ranges.seal(key));
    }

    @Override
    public SortedMap<String, RangeState> list() {
        return reporter.run(Operation.RANGE_LIST, "", ranges::list);
    }
}
