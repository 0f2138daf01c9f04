/**
 * The implementation of the ZooKeeper backend: the Dagger assembly of one store (the component, the
 * checks made at open, the store that closes what it opened) above its rooms: {@code connect}
 * (options, TLS, the probe of unreachable servers), {@code wire} (requests, replies, conditional
 * writes, retries and what they report), {@code ranges} (where a range acquire is decided) and
 * {@code slots} (where a slot term is chosen and written).
 *
 * <p>Not API: public members exist only so that the entry point {@code
 * io.cosid.store.zookeeper.ZooKeeperStores}, the rooms and Dagger's generated factories can reach
 * each other, and they may change in any release.
 */
@NullMarked
package io.cosid.store.zookeeper.internal;

import org.jspecify.annotations.NullMarked;
