/**
 * For backend authors, not for applications: the rules every backend applies the same way, kept in
 * one place (docs/contract.md). Applications use {@link io.cosid.store} alone.
 */
@NullMarked
package io.cosid.store.spi;

import org.jspecify.annotations.NullMarked;
