/**
 * Micrometer meters for cosid-store: {@link io.cosid.store.micrometer.StoreMetrics} is a {@code
 * MeterBinder} and a {@link io.cosid.store.StoreObserver}; attach it to the stores it measures with
 * {@link io.cosid.store.StoreConfig#withObserver}.
 */
@NullMarked
package io.cosid.store.micrometer;

import org.jspecify.annotations.NullMarked;
