package io.cosid.store.micrometer;

import io.cosid.store.StoreObserver.OperationStart;
import io.cosid.store.StoreObserver.Outcome;
import io.cosid.store.micrometer.StoreObservationDocumentation.HighCardinalityKeyNames;
import io.cosid.store.micrometer.StoreObservationDocumentation.LowCardinalityKeyNames;
import io.micrometer.common.KeyValues;

/**
 * The default convention ({@link StoreObservationDocumentation#OPERATION}): name {@value
 * StoreObservations#NAME}, the operation's tag ({@code range.acquire}, {@code slot.renew}, ...) as
 * the contextual name, {@code store}, {@code type}, {@code operation} and {@code outcome} as {@link
 * StoreMetrics} tags them, and the range key or namespace as the high-cardinality {@code subject}
 * (spans only, never a meter tag).
 */
public class DefaultStoreObservationConvention implements StoreObservationConvention {

    /** The convention, shared: it keeps no state. */
    public static final DefaultStoreObservationConvention INSTANCE =
            new DefaultStoreObservationConvention();

    /** Created by subclasses, or as {@link #INSTANCE}. */
    protected DefaultStoreObservationConvention() {}

    @Override
    public String getName() {
        return StoreObservations.NAME;
    }

    @Override
    public String getContextualName(StoreObservationContext context) {
        return context.start().operation().tag();
    }

    @Override
    public KeyValues getLowCardinalityKeyValues(StoreObservationContext context) {
        OperationStart start = context.start();
        Throwable error = context.getError();
        return KeyValues.of(
                LowCardinalityKeyNames.STORE.withValue(start.store()),
                LowCardinalityKeyNames.TYPE.withValue(start.type()),
                LowCardinalityKeyNames.OPERATION.withValue(start.operation().tag()),
                LowCardinalityKeyNames.OUTCOME.withValue(
                        error == null ? Outcome.SUCCESS.tag() : Outcome.of(error).tag()));
    }

    @Override
    public KeyValues getHighCardinalityKeyValues(StoreObservationContext context) {
        return KeyValues.of(HighCardinalityKeyNames.SUBJECT.withValue(context.start().subject()));
    }
}
