package io.cosid.store.zookeeper.internal;

/** Who closes the CuratorFramework: the store that built it, or the caller who passed it. */
enum ClientOwnership {
    OWNED,
    BORROWED
}
