/**
 * CosId on cosid-store: CosId's generators ({@code me.ahoo.cosid}) drawing their segments from a
 * cosid-store {@link io.cosid.store.RangeStore} of any backend.
 *
 * <p>{@link io.cosid.store.cosid.StoreIdSegmentDistributorFactory} is the entry point for segment
 * IDs: give it to CosId wherever an {@code IdSegmentDistributorFactory} goes (the grouped, per-day
 * distributor included), or create a {@link io.cosid.store.cosid.StoreIdSegmentDistributor}
 * directly. Written against CosId's interfaces and cosid-store's API only.
 */
@NullMarked
package io.cosid.store.cosid;

import org.jspecify.annotations.NullMarked;
