/**
 * Micrometer for cosid-store, as two {@link io.cosid.store.StoreObserver}s to attach to the stores
 * with {@link io.cosid.store.StoreConfig#withObserver}: {@link
 * io.cosid.store.micrometer.StoreMetrics}, meters registered as events arrive, and {@link
 * io.cosid.store.micrometer.StoreObservations}, an observation around every operation with a
 * replaceable {@link io.cosid.store.micrometer.StoreObservationConvention}.
 */
@NullMarked
package io.cosid.store.micrometer;

import org.jspecify.annotations.NullMarked;
