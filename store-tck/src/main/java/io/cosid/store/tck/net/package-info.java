/**
 * TCP proxies for tests of any backend: {@link io.cosid.store.tck.net.DelayingProxy} puts a server
 * at a distance, {@link io.cosid.store.tck.net.ProxyConnections} is the accept loop a backend's own
 * fault proxy (one that drops or cuts a given message) builds on.
 */
@NullMarked
package io.cosid.store.tck.net;

import org.jspecify.annotations.NullMarked;
