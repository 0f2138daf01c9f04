package io.cosid.store.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cosid.store.RangeSealedException;
import io.cosid.store.SlotLease;
import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.StoreObserver;
import io.cosid.store.inmemory.InMemoryStores;
import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import io.micrometer.common.docs.KeyName;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Store operations as Micrometer observations ({@link StoreObservations}). */
@DisplayName("StoreObservations")
class StoreObservationsTest {

    private final List<Observation.Context> stopped = new CopyOnWriteArrayList<>();
    private final ObservationRegistry registry = ObservationRegistry.create();

    StoreObservationsTest() {
        registry.observationConfig()
                .observationHandler(
                        new ObservationHandler<>() {
                            @Override
                            public boolean supportsContext(Observation.Context context) {
                                return true;
                            }

                            @Override
                            public void onStop(Observation.Context context) {
                                stopped.add(context);
                            }
                        });
    }

    private static Store open(StoreObserver observer) {
        return InMemoryStores.backend()
                .open(StoreConfig.of("main", "in-memory").withObserver(observer));
    }

    private Store observed() {
        return open(new StoreObservations(registry));
    }

    private static @Nullable String low(Observation.Context context, String key) {
        KeyValue value = context.getLowCardinalityKeyValue(key);
        return value == null ? null : value.getValue();
    }

    @Test
    @DisplayName(
            "each operation is one observation: its name, the store, the outcome, the key as"
                    + " high-cardinality subject")
    void operations() {
        Store store = observed();
        store.ranges().acquire("orders", 10);
        store.ranges().seal("orders");
        assertThatThrownBy(() -> store.ranges().acquire("orders", 10))
                .isInstanceOf(RangeSealedException.class);

        assertThat(stopped).hasSize(3);
        Observation.Context first = stopped.get(0);
        assertThat(first.getName()).isEqualTo(StoreObservations.NAME);
        assertThat(first.getContextualName()).isEqualTo("range.acquire");
        assertThat(low(first, "store")).isEqualTo(store.name());
        assertThat(low(first, "type")).isEqualTo("in-memory");
        assertThat(low(first, "outcome")).isEqualTo("success");
        assertThat(first.getHighCardinalityKeyValue("subject").getValue()).isEqualTo("orders");
        assertThat(first.getError()).isNull();

        Observation.Context failed = stopped.get(2);
        assertThat(low(failed, "outcome")).isEqualTo("sealed");
        assertThat(failed.getError()).isInstanceOf(RangeSealedException.class);
    }

    @Test
    @DisplayName("slot operations are observed too, a lease's namespace as the subject")
    void slots() {
        Store store = observed();
        store.slots().define("workers", 2, Duration.ofMillis(100));
        SlotLease lease = store.slots().acquire("workers", "host-1", Duration.ofMinutes(1));
        store.slots().release(store.slots().renew(lease));
        assertThat(stopped)
                .extracting(Observation.Context::getContextualName)
                .containsExactly("namespace.define", "slot.acquire", "slot.renew", "slot.release");
        assertThat(stopped)
                .allSatisfy(
                        c ->
                                assertThat(c.getHighCardinalityKeyValue("subject").getValue())
                                        .isEqualTo("workers"));
    }

    @Test
    @DisplayName("meters from observations carry no subject tag")
    void metersLowCardinality() {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        ObservationRegistry withMeters = ObservationRegistry.create();
        withMeters
                .observationConfig()
                .observationHandler(new DefaultMeterObservationHandler(meters));
        Store store = open(new StoreObservations(withMeters));
        for (int i = 0; i < 50; i++) {
            store.ranges().acquire("key-" + i, 1);
        }
        assertThat(meters.getMeters())
                .isNotEmpty()
                .allSatisfy(
                        (Meter m) ->
                                assertThat(m.getId().getTags())
                                        .extracting(Tag::getKey)
                                        .doesNotContain("subject"));
        assertThat(meters.get(StoreObservations.NAME).tag("outcome", "success").timer().count())
                .isEqualTo(50);
    }

    @Test
    @DisplayName("events are reported inside the observation, so meters see it as current")
    void eventsInsideObservation() {
        List<String> seen = new CopyOnWriteArrayList<>();
        StoreObserver current =
                new StoreObserver() {
                    @Override
                    public void operation(OperationEvent event) {
                        Observation observation = registry.getCurrentObservation();
                        KeyValue operation =
                                observation == null
                                        ? null
                                        : observation
                                                .getContextView()
                                                .getLowCardinalityKeyValue("operation");
                        seen.add(operation == null ? "none" : operation.getValue());
                    }
                };
        Store store = open(StoreObserver.all(List.of(new StoreObservations(registry), current)));
        store.ranges().acquire("orders", 10);
        store.ranges().peek("orders");
        assertThat(seen).containsExactly("range.acquire", "range.peek");
    }

    @Test
    @DisplayName("a convention of the caller's replaces the default one")
    void customConvention() {
        StoreObservationConvention mine =
                new DefaultStoreObservationConvention() {
                    @Override
                    public String getName() {
                        return "ids.store";
                    }

                    @Override
                    public KeyValues getHighCardinalityKeyValues(StoreObservationContext context) {
                        return KeyValues.empty();
                    }
                };
        Store store = open(new StoreObservations(registry, mine));
        store.ranges().acquire("orders", 10);
        assertThat(stopped)
                .singleElement()
                .satisfies(
                        c -> {
                            assertThat(c.getName()).isEqualTo("ids.store");
                            assertThat(low(c, "operation")).isEqualTo("range.acquire");
                            assertThat(c.getHighCardinalityKeyValue("subject")).isNull();
                        });
    }

    @Test
    @DisplayName("the documentation lists every key the default convention sets")
    void documented() {
        Store store = observed();
        store.ranges().acquire("orders", 10);
        Observation.Context context = stopped.get(0);
        assertThat(StoreObservationDocumentation.OPERATION.getLowCardinalityKeyNames())
                .extracting(KeyName::asString)
                .containsExactlyInAnyOrderElementsOf(
                        context.getLowCardinalityKeyValues().stream()
                                .map(KeyValue::getKey)
                                .toList());
        assertThat(StoreObservationDocumentation.OPERATION.getHighCardinalityKeyNames())
                .extracting(KeyName::asString)
                .containsExactly("subject");
        assertThat(StoreObservationDocumentation.OPERATION.getDefaultConvention())
                .isEqualTo(DefaultStoreObservationConvention.class);
    }
}
