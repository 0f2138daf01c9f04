/**
 * Where a slot term is chosen and written: {@link
 * io.cosid.store.zookeeper.internal.slots.ZooKeeperSlotLeaseStore} is the API; the slot node's
 * data, the namespace node and the owner index are encoded here. Never imports the range room.
 */
@NullMarked
package io.cosid.store.zookeeper.internal.slots;

import org.jspecify.annotations.NullMarked;
