package io.cosid.store.cosid;

import io.cosid.store.RangeStore;
import me.ahoo.cosid.segment.IdSegmentDistributor;
import me.ahoo.cosid.segment.IdSegmentDistributorDefinition;
import me.ahoo.cosid.segment.IdSegmentDistributorFactory;

/**
 * CosId's {@link IdSegmentDistributorFactory} on a cosid-store {@link RangeStore}: wherever CosId
 * takes a factory (its grouped, per-day distributor included), segments come from the store.
 *
 * <pre>{@code
 * RangeStore ranges = store.ranges();
 * IdSegmentDistributorFactory factory = new StoreIdSegmentDistributorFactory(ranges);
 * IdSegmentDistributor distributor =
 *         factory.create(new IdSegmentDistributorDefinition("shop", "order", 0, 100));
 * SegmentChainId orderIds = new SegmentChainId(distributor);
 * }</pre>
 *
 * <p>{@link #create} raises the key {@code {namespace}.{name}} to the definition's offset with
 * {@link RangeStore#advance(String, long)} (one write, or none when the key is already there or
 * beyond), so the first ID is {@code offset + 1}; a key already past the offset keeps its value, so
 * creating a distributor again, in this process or another, never hands out a segment twice.
 */
public final class StoreIdSegmentDistributorFactory implements IdSegmentDistributorFactory {

    private final RangeStore ranges;

    /**
     * A factory whose distributors draw from {@code ranges}.
     *
     * @param ranges the store's ranges
     * @throws NullPointerException if {@code ranges} is null
     */
    public StoreIdSegmentDistributorFactory(RangeStore ranges) {
        if (ranges == null) {
            throw new NullPointerException("ranges must not be null");
        }
        this.ranges = ranges;
    }

    /**
     * A distributor for {@code definition}, its key raised to the definition's offset.
     *
     * @param definition CosId's namespace, name, offset and step
     * @return the distributor
     * @throws IllegalArgumentException if the offset is negative, the step is below 1 or the
     *     namespace and name make no valid store key; nothing is written
     * @throws io.cosid.store.RangeSealedException if the key was sealed
     * @throws io.cosid.store.StoreTimeoutException if the store's timeout ran out
     */
    @Override
    public IdSegmentDistributor create(IdSegmentDistributorDefinition definition) {
        if (definition == null) {
            throw new NullPointerException("definition must not be null");
        }
        if (definition.getOffset() < 0) {
            throw new IllegalArgumentException(
                    "offset of "
                            + definition.getNamespacedName()
                            + " must be at least 0 (IDs start at offset + 1), was "
                            + definition.getOffset());
        }
        StoreIdSegmentDistributor distributor =
                new StoreIdSegmentDistributor(
                        ranges,
                        definition.getNamespace(),
                        definition.getName(),
                        definition.getStep());
        ranges.advance(distributor.key(), definition.getOffset());
        return distributor;
    }
}
