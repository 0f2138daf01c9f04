/**
 * Where a range acquire is decided: {@link
 * io.cosid.store.zookeeper.internal.ranges.ZooKeeperRangeStore} is the API, {@link
 * io.cosid.store.zookeeper.internal.ranges.RangeWrite} decides when to write and when to wait in a
 * key's line, {@link io.cosid.store.zookeeper.internal.ranges.RangeKey} owns what the store knows
 * of one key and sends its reads and writes. Never imports the slot room.
 */
@NullMarked
package io.cosid.store.zookeeper.internal.ranges;

import org.jspecify.annotations.NullMarked;
