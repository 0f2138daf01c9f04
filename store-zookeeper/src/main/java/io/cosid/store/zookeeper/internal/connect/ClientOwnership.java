package io.cosid.store.zookeeper.internal.connect;

/** Who closes the CuratorFramework: the store that built it, or the caller who passed it. */
public enum ClientOwnership {
    OWNED,
    BORROWED
}
