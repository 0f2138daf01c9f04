package io.cosid.store.zookeeper;

/** Who closes the CuratorFramework: the store that built it, or the caller who passed it. */
enum ClientOwnership {
    OWNED,
    BORROWED
}
