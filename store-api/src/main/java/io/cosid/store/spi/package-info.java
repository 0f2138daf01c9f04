/**
 * For backend authors, not for applications: the rules every backend applies the same way, kept in one place
 * (docs/contract.md). Applications use {@link io.cosid.store} alone.
 */
package io.cosid.store.spi;
