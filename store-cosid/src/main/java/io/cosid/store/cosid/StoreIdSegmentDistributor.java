package io.cosid.store.cosid;

import io.cosid.store.Range;
import io.cosid.store.RangeStore;
import io.cosid.store.StoreArguments;
import me.ahoo.cosid.segment.IdSegmentDistributor;

/**
 * CosId's {@link IdSegmentDistributor} on a cosid-store {@link RangeStore}: each segment is one
 * {@link RangeStore#acquire(String, long)} of the key {@code {namespace}.{name}}, so segments are
 * disjoint across every thread, process and store that shares the backend, and a write whose
 * outcome is unknown costs a gap, never a segment handed out twice (docs/contract.md).
 *
 * <p>CosId counts a segment by its maximum ID: {@link #nextMaxId(long)} acquires the range {@code
 * [start, start + step)} and returns {@code start + step}, so the segment's IDs are {@code start +
 * 1 .. start + step}. The key starts at the definition's offset ({@link
 * StoreIdSegmentDistributorFactory} advances it there), so the first ID is {@code offset + 1}.
 *
 * <p>The key's counter only grows: a definition with a lower offset never takes it back, and a key
 * lowered behind the store's back is refused by the store ({@code StoreCorruptedException}), so
 * CosId never sees a segment again. A sealed key (moved elsewhere) fails every {@code nextMaxId}
 * with {@code RangeSealedException}.
 */
public final class StoreIdSegmentDistributor implements IdSegmentDistributor {

    private final RangeStore ranges;
    private final String namespace;
    private final String name;
    private final long step;
    private final String key;

    /**
     * A distributor of the key {@link #keyOf(String, String) keyOf(namespace, name)}. It does not
     * touch the store; {@link StoreIdSegmentDistributorFactory} also moves the key to its offset.
     *
     * @param ranges the store the segments come from
     * @param namespace CosId's namespace
     * @param name the generator's name within it
     * @param step the default segment size, at least 1
     * @throws IllegalArgumentException if {@code step < 1}, or the key is not a valid store key
     *     ({@link StoreArguments#requireKey(String)})
     * @throws NullPointerException if an argument is null
     */
    public StoreIdSegmentDistributor(RangeStore ranges, String namespace, String name, long step) {
        if (ranges == null || namespace == null || name == null) {
            throw new NullPointerException("ranges, namespace and name must not be null");
        }
        requireStep(step);
        this.ranges = ranges;
        this.namespace = namespace;
        this.name = name;
        this.step = step;
        this.key = keyOf(namespace, name);
    }

    /**
     * The store key of a generator: {@code {namespace}.{name}}, the name CosId's own distributors
     * give it.
     *
     * @param namespace CosId's namespace
     * @param name the generator's name
     * @return the key
     * @throws IllegalArgumentException if the result is not a valid store key
     */
    public static String keyOf(String namespace, String name) {
        String key = IdSegmentDistributor.getNamespacedName(namespace, name);
        try {
            return StoreArguments.requireKey(key);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "CosId namespace '"
                            + namespace
                            + "' and name '"
                            + name
                            + "' make no valid store key: "
                            + e.getMessage(),
                    e);
        }
    }

    /**
     * The store key this distributor acquires from.
     *
     * @return {@code {namespace}.{name}}
     */
    public String key() {
        return key;
    }

    @Override
    public String getNamespace() {
        return namespace;
    }

    @Override
    public String getName() {
        return name;
    }

    @Override
    public long getStep() {
        return step;
    }

    /**
     * Acquires the next segment.
     *
     * @param step the segment's size, at least 1
     * @return the segment's maximum ID: its IDs are {@code result - step + 1 .. result}
     * @throws IllegalArgumentException if {@code step < 1}
     * @throws io.cosid.store.RangeSealedException if the key was sealed
     * @throws io.cosid.store.RangeExhaustedException if the key's counter would pass {@link
     *     Long#MAX_VALUE}
     * @throws io.cosid.store.StoreTimeoutException if the store's timeout ran out
     */
    @Override
    public long nextMaxId(long step) {
        requireStep(step);
        Range range = ranges.acquire(key, step);
        return range.end();
    }

    private static void requireStep(long step) {
        if (step < 1) {
            throw new IllegalArgumentException(
                    "step must be at least 1 (the number of IDs in a segment), was " + step);
        }
    }

    @Override
    public String toString() {
        return "StoreIdSegmentDistributor[key=" + key + ", step=" + step + "]";
    }
}
