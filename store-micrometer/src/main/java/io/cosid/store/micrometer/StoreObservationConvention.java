package io.cosid.store.micrometer;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * Names and key values of store operation observations: implement it (or extend {@link
 * DefaultStoreObservationConvention}) and hand it to {@link StoreObservations} to replace the
 * default.
 */
public interface StoreObservationConvention extends ObservationConvention<StoreObservationContext> {

    @Override
    default boolean supportsContext(Observation.Context context) {
        return context instanceof StoreObservationContext;
    }
}
