package io.cosid.store.micrometer;

import io.cosid.store.RangeStore;
import io.cosid.store.SlotLease;
import io.cosid.store.SlotLeaseStore;
import io.cosid.store.Store;
import io.cosid.store.StoreAdmin;
import io.cosid.store.StoreObserver.Outcome;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Micrometer's Observation API around every store operation, for tracing: an {@link Observation}
 * named {@value #NAME} per call, with the contextual name of the operation ({@code range.acquire},
 * {@code slot.renew}, ...), low-cardinality key values {@code store}, {@code type}, {@code
 * operation} and {@code outcome} (as {@link StoreMetrics} tags them), the range key or namespace as
 * the high-cardinality {@code subject} (spans only, never a meter tag), and the failure as the
 * observation's error.
 *
 * <pre>{@code
 * Store store = StoreObservations.observe(ZooKeeperStores.open(config), observationRegistry);
 * }</pre>
 *
 * <p>An observation surrounds the call, which an after-the-fact {@link
 * io.cosid.store.StoreObserver} cannot: that is why this wraps the store instead of observing it.
 */
public final class StoreObservations {

    /** The observations' name. */
    public static final String NAME = "cosid.store.operation";

    private StoreObservations() {}

    private static final Map<String, String> RANGE_OPERATIONS =
            Map.of(
                    "acquire", "range.acquire",
                    "peek", "range.peek",
                    "advance", "range.advance",
                    "seal", "range.seal",
                    "list", "range.list");

    private static final Map<String, String> SLOT_OPERATIONS =
            Map.of(
                    "define", "namespace.define",
                    "namespace", "namespace.get",
                    "namespaces", "namespace.list",
                    "acquire", "slot.acquire",
                    "renew", "slot.renew",
                    "release", "slot.release",
                    "advance", "slot.advance",
                    "inspect", "slot.inspect");

    /**
     * {@code store} with every operation observed in {@code registry}.
     *
     * @param store the store
     * @param registry the observation registry; {@link ObservationRegistry#NOOP} returns the store
     *     itself
     * @return the observed store
     */
    public static Store observe(Store store, ObservationRegistry registry) {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(registry, "registry");
        if (registry.isNoop()) {
            return store;
        }
        RangeStore ranges =
                proxy(RangeStore.class, store.ranges(), store, registry, RANGE_OPERATIONS);
        SlotLeaseStore slots =
                proxy(SlotLeaseStore.class, store.slots(), store, registry, SLOT_OPERATIONS);
        return new Store() {
            @Override
            public String name() {
                return store.name();
            }

            @Override
            public String type() {
                return store.type();
            }

            @Override
            public RangeStore ranges() {
                return ranges;
            }

            @Override
            public SlotLeaseStore slots() {
                return slots;
            }

            @Override
            public Optional<StoreAdmin> admin() {
                return store.admin()
                        .map(
                                admin ->
                                        () ->
                                                observed(store, registry, "purge", "")
                                                        .observe(admin::purge));
            }

            @Override
            public void close() {
                store.close();
            }

            @Override
            public String toString() {
                return store.toString();
            }
        };
    }

    private static <T> T proxy(
            Class<T> type,
            T target,
            Store store,
            ObservationRegistry registry,
            Map<String, String> operations) {
        InvocationHandler handler =
                (proxy, method, args) -> {
                    String operation = operations.get(method.getName());
                    if (operation == null || method.getDeclaringClass() == Object.class) {
                        return invoke(method, target, args);
                    }
                    Observation observation =
                            observed(store, registry, operation, subject(args)).start();
                    try (Observation.Scope scope = observation.openScope()) {
                        Object result = invoke(method, target, args);
                        observation.lowCardinalityKeyValue("outcome", Outcome.SUCCESS.tag());
                        return result;
                    } catch (RuntimeException | Error e) {
                        observation.lowCardinalityKeyValue("outcome", Outcome.of(e).tag());
                        observation.error(e);
                        throw e;
                    } finally {
                        observation.stop();
                    }
                };
        return type.cast(
                Proxy.newProxyInstance(
                        StoreObservations.class.getClassLoader(), new Class<?>[] {type}, handler));
    }

    private static Observation observed(
            Store store, ObservationRegistry registry, String operation, String subject) {
        return Observation.createNotStarted(NAME, registry)
                .contextualName(operation)
                .lowCardinalityKeyValue("store", store.name())
                .lowCardinalityKeyValue("type", store.type())
                .lowCardinalityKeyValue("operation", operation)
                .highCardinalityKeyValue("subject", subject);
    }

    /** The range key or namespace a call is about: its first argument, or a lease's namespace. */
    private static String subject(@Nullable Object[] args) {
        if (args == null || args.length == 0 || args[0] == null) {
            return "";
        }
        return args[0] instanceof SlotLease lease ? lease.namespace() : String.valueOf(args[0]);
    }

    private static @Nullable Object invoke(Method method, Object target, @Nullable Object[] args)
            throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
