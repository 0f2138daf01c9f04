/**
 * CosId on cosid-store: CosId's generators ({@code me.ahoo.cosid}) drawing their segments from a
 * cosid-store {@link io.cosid.store.RangeStore} and their machine ids from a {@link
 * io.cosid.store.SlotLeaseStore}, of any backend.
 *
 * <ul>
 *   <li>{@link io.cosid.store.cosid.StoreIdSegmentDistributorFactory}: give it to CosId wherever an
 *       {@code IdSegmentDistributorFactory} goes (the grouped, per-day distributor included), or
 *       create a {@link io.cosid.store.cosid.StoreIdSegmentDistributor} directly.
 *   <li>{@link io.cosid.store.cosid.StoreMachineIdDistributor}: CosId's {@code
 *       MachineIdDistributor}, a machine id being a slot lease with a fence and a timestamp window.
 *   <li>{@link io.cosid.store.cosid.LeaseBoundSnowflakeId}: wraps CosId's snowflake generator and
 *       refuses every ID the lease does not cover ({@link
 *       io.cosid.store.cosid.MachineIdLeaseException}).
 * </ul>
 *
 * <p>Written against CosId's interfaces and cosid-store's API only.
 */
@NullMarked
package io.cosid.store.cosid;

import org.jspecify.annotations.NullMarked;
