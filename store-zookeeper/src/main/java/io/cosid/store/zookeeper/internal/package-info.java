/**
 * The implementation of the ZooKeeper backend. Not API: its public members exist only so that the
 * entry point {@code io.cosid.store.zookeeper.ZooKeeperStores} and Dagger's generated factories can
 * reach it, and they may change in any release.
 */
package io.cosid.store.zookeeper.internal;
