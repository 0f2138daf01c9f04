/**
 * The ZooKeeper backend: {@link io.cosid.store.RangeStore} and {@link
 * io.cosid.store.SlotLeaseStore} on ZooKeeper 3.8 or later with Apache Curator 5.9.
 *
 * <p>{@link io.cosid.store.zookeeper.ZooKeeperStores} is the entry point; the provider type {@code
 * zookeeper} lets {@link io.cosid.store.Stores} open it from configuration. The node layout and the
 * compare-and-set rules are in the project's {@code docs/contract.md} and {@code
 * store-zookeeper/README.md}. No ZooKeeper, Curator or Dagger type appears in a public signature
 * except the entry point that accepts a caller's started {@code CuratorFramework}.
 *
 * <p>Unlike store-api, store-inmemory and store-jdbc, this module has no {@code module-info}: it
 * needs ZooKeeper's client, and ZooKeeper 3.9's two jars split packages between them ({@code
 * zookeeper} and {@code zookeeper-jute} both hold classes of {@code
 * org.apache.zookeeper.server.persistence} and {@code org.apache.zookeeper.server.quorum}), so they
 * cannot both be modules on one module path, and a module that requires ZooKeeper cannot be
 * resolved. The backend runs on the class path (an application on the module path puts it there,
 * beside the named store-api). Its {@code internal} packages hold public classes only because
 * Dagger's generated factories need them; ArchUnit keeps every other module out of them.
 */
@NullMarked
package io.cosid.store.zookeeper;

import org.jspecify.annotations.NullMarked;
