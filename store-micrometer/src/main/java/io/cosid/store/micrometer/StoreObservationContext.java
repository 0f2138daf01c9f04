package io.cosid.store.micrometer;

import io.cosid.store.StoreObserver.OperationStart;
import io.micrometer.observation.Observation;
import java.util.Objects;

/**
 * What an observation of one store operation knows: which operation, on what ({@link
 * OperationStart}); how it ended is the context's {@linkplain #getError() error}, none on success.
 */
public class StoreObservationContext extends Observation.Context {

    private final OperationStart start;

    /**
     * The context of {@code start}'s operation.
     *
     * @param start which operation is about to run, on what
     */
    public StoreObservationContext(OperationStart start) {
        this.start = Objects.requireNonNull(start, "start");
    }

    /**
     * Which operation, on what.
     *
     * @return the operation as the store announced it
     */
    public OperationStart start() {
        return start;
    }
}
