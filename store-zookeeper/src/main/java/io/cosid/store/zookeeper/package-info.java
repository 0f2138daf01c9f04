/**
 * The ZooKeeper backend (Curator 5.9). Not implemented yet: this module is a placeholder so that the
 * build, the BOM and the architecture rules already cover it.
 */
package io.cosid.store.zookeeper;
