/**
 * The ZooKeeper backend: {@link io.cosid.store.RangeStore} and {@link
 * io.cosid.store.SlotLeaseStore} on ZooKeeper 3.8 or later with Apache Curator 5.9.
 *
 * <p>{@link io.cosid.store.zookeeper.ZooKeeperStores} is the entry point; the provider type {@code
 * zookeeper} lets {@link io.cosid.store.Stores} open it from configuration. The node layout and the
 * compare-and-set rules are in the project's {@code docs/contract.md} and {@code
 * store-zookeeper/README.md}. No ZooKeeper, Curator or Dagger type appears in a public signature
 * except the entry point that accepts a caller's started {@code CuratorFramework}.
 */
@NullMarked
package io.cosid.store.zookeeper;

import org.jspecify.annotations.NullMarked;
