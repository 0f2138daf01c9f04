package io.cosid.store.micrometer;

import io.cosid.store.StoreObserver;
import io.micrometer.observation.ObservationRegistry;
import java.util.Objects;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Micrometer's Observation API around every store operation, for tracing: an observer whose
 * around-hook ({@link StoreObserver#around}) makes each call an observation ({@link
 * StoreObservationDocumentation#OPERATION}) named {@value #NAME}, with the key values of {@link
 * DefaultStoreObservationConvention} or of a convention of the caller's, and the failure as its
 * error. The operation's events are reported inside the observation, so that meters recorded for
 * them see its trace context.
 *
 * <pre>{@code
 * Store store = ZooKeeperStores.open(config.withObserver(new StoreObservations(registry)));
 * }</pre>
 */
public final class StoreObservations implements StoreObserver {

    /** The observations' name. */
    public static final String NAME = "cosid.store.operation";

    private final ObservationRegistry registry;
    private final @Nullable StoreObservationConvention convention;

    /**
     * Observations in {@code registry} with the default convention.
     *
     * @param registry the observation registry
     */
    public StoreObservations(ObservationRegistry registry) {
        this(registry, null);
    }

    /**
     * Observations in {@code registry} with {@code convention} in place of the default.
     *
     * @param registry the observation registry
     * @param convention the convention; null for {@link DefaultStoreObservationConvention}
     */
    public StoreObservations(
            ObservationRegistry registry, @Nullable StoreObservationConvention convention) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.convention = convention;
    }

    @Override
    public <T> T around(OperationStart start, Supplier<T> call) {
        return StoreObservationDocumentation.OPERATION
                .observation(
                        convention,
                        DefaultStoreObservationConvention.INSTANCE,
                        () -> new StoreObservationContext(start),
                        registry)
                .observe(call);
    }

    @Override
    public String toString() {
        return "StoreObservations[" + registry + "]";
    }
}
