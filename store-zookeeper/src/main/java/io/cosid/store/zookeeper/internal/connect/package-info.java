/**
 * How a store reaches its ensemble: the parsed options, TLS key and trust stores, the probe that
 * names unreachable or too-old servers, and who closes the client. Imports no other room.
 */
@NullMarked
package io.cosid.store.zookeeper.internal.connect;

import org.jspecify.annotations.NullMarked;
