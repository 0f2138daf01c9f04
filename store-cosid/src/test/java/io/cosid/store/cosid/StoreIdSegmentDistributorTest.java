package io.cosid.store.cosid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cosid.store.RangeSealedException;
import io.cosid.store.RangeStore;
import io.cosid.store.inmemory.InMemoryBackend;
import io.cosid.store.inmemory.InMemoryStores;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Function;
import me.ahoo.cosid.segment.DefaultSegmentId;
import me.ahoo.cosid.segment.IdSegmentDistributor;
import me.ahoo.cosid.segment.IdSegmentDistributorDefinition;
import me.ahoo.cosid.segment.IdSegmentDistributorFactory;
import me.ahoo.cosid.segment.SegmentChainId;
import me.ahoo.cosid.segment.SegmentId;
import me.ahoo.cosid.segment.grouped.GroupedIdSegmentDistributorFactory;
import me.ahoo.cosid.segment.grouped.GroupedKey;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * CosId's segment generators on cosid-store's in-memory backend, with the real CosId classes:
 * several stores on one backend play the part of several processes sharing one server.
 */
@DisplayName("CosId segment IDs on a cosid-store RangeStore")
class StoreIdSegmentDistributorTest {

    private static final int STORES = 4;

    private final InMemoryBackend backend = InMemoryStores.backend();
    private final Generating generating = new Generating();

    @AfterEach
    void close() {
        generating.close();
    }

    private RangeStore ranges() {
        return generating.keep(backend.open()).ranges();
    }

    private static IdSegmentDistributorDefinition definition(long offset, long step) {
        return new IdSegmentDistributorDefinition("shop", "order", offset, step);
    }

    @Nested
    @DisplayName("a distributor")
    class Distributor {

        @Test
        @DisplayName(
                "hands out segments starting at offset + 1, each ending at the maximum ID it"
                        + " returns")
        void segmentsStartAtOffset() {
            RangeStore ranges = ranges();
            IdSegmentDistributor distributor =
                    new StoreIdSegmentDistributorFactory(ranges).create(definition(1_000, 100));

            assertThat(distributor.nextMaxId(100)).isEqualTo(1_100);
            assertThat(distributor.nextMaxId(50)).isEqualTo(1_150);
            assertThat(distributor.nextIdSegment().getOffset()).isEqualTo(1_150);
            assertThat(ranges.peek("shop.order")).get().extracting(s -> s.next()).isEqualTo(1_250L);
        }

        @Test
        @DisplayName("uses the key {namespace}.{name}, CosId's own name for a generator")
        void keyIsNamespacedName() {
            StoreIdSegmentDistributor distributor =
                    new StoreIdSegmentDistributor(ranges(), "shop", "order", 10);

            assertThat(distributor.key()).isEqualTo("shop.order");
            assertThat(distributor.key()).isEqualTo(distributor.getNamespacedName());
            assertThat(distributor.getStep()).isEqualTo(10);
        }

        @Test
        @DisplayName(
                "never takes a key back: a lower offset keeps the counter, a higher one raises it")
        void offsetsOnlyRaise() {
            RangeStore ranges = ranges();
            StoreIdSegmentDistributorFactory factory = new StoreIdSegmentDistributorFactory(ranges);
            long first = factory.create(definition(500, 100)).nextMaxId(100);

            long again = factory.create(definition(0, 100)).nextMaxId(100);
            long raised = factory.create(definition(10_000, 100)).nextMaxId(100);

            assertThat(first).isEqualTo(600);
            assertThat(again).isEqualTo(700);
            assertThat(raised).isEqualTo(10_100);
        }

        @Test
        @DisplayName("refuses a step below 1 and a negative offset, writing nothing")
        void refusesBadInput() {
            RangeStore ranges = ranges();
            StoreIdSegmentDistributorFactory factory = new StoreIdSegmentDistributorFactory(ranges);

            assertThatThrownBy(() -> factory.create(definition(-1, 100)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("offset of shop.order must be at least 0");
            IdSegmentDistributor distributor = factory.create(definition(0, 100));
            assertThatThrownBy(() -> distributor.nextMaxId(0))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("step must be at least 1");
            assertThatThrownBy(() -> new StoreIdSegmentDistributor(ranges, "shop", "order", 0))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("was 0");
            assertThat(ranges.peek("shop.order")).isEmpty();
        }

        @Test
        @DisplayName("refuses a namespace and name that make no valid store key, naming both")
        void refusesInvalidKey() {
            assertThatThrownBy(() -> new StoreIdSegmentDistributor(ranges(), "shop", "a\u0000b", 1))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("CosId namespace 'shop'")
                    .hasMessageContaining("make no valid store key");
        }

        @Test
        @DisplayName("stops at a sealed key: nothing more is handed out")
        void sealedKeyRefused() {
            RangeStore ranges = ranges();
            IdSegmentDistributor distributor =
                    new StoreIdSegmentDistributorFactory(ranges).create(definition(0, 10));
            distributor.nextMaxId(10);
            ranges.seal("shop.order");

            assertThatThrownBy(() -> distributor.nextMaxId(10))
                    .isInstanceOf(RangeSealedException.class);
            assertThatThrownBy(
                            () ->
                                    new StoreIdSegmentDistributorFactory(ranges)
                                            .create(definition(0, 10)))
                    .isInstanceOf(RangeSealedException.class);
        }

        @Test
        @DisplayName("gives disjoint segments to many threads of several stores at once")
        void concurrentNextMaxId() throws Exception {
            int threadsPerStore = 4;
            int segmentsPerThread = 500;
            List<Callable<long[]>> tasks = new ArrayList<>();
            for (int s = 0; s < STORES; s++) {
                IdSegmentDistributor distributor =
                        new StoreIdSegmentDistributorFactory(ranges()).create(definition(7, 3));
                for (int t = 0; t < threadsPerStore; t++) {
                    tasks.add(Generating.take(segmentsPerThread, () -> distributor.nextMaxId(3)));
                }
            }
            long[] all = generating.all(tasks);

            // every segment is (max - 3, max]: distinct maxima three apart cover offset + 1 on
            long count = (long) STORES * threadsPerStore * segmentsPerThread;
            assertThat(all).hasSize((int) count);
            for (int i = 0; i < all.length; i++) {
                assertThat(all[i]).isEqualTo(7 + 3L * (i + 1));
            }
        }
    }

    @Nested
    @DisplayName("CosId's generators on it")
    class Generators {

        @Test
        @DisplayName(
                "SegmentChainId with its prefetch worker: 1,000,000 IDs from 4 stores, none twice")
        void segmentChainId() throws Exception {
            assertUnique(SegmentChainId::new, 1_000_000, 1_000);
        }

        @Test
        @DisplayName("DefaultSegmentId: 200,000 IDs from 4 stores, none twice")
        void defaultSegmentId() throws Exception {
            assertUnique(DefaultSegmentId::new, 200_000, 100);
        }

        @Test
        @DisplayName(
                "the grouped distributor keys each group {namespace}.{name}{group} and never"
                        + " repeats")
        void grouped() {
            RangeStore ranges = ranges();
            String[] group = {"2026-12-05"};
            IdSegmentDistributorFactory factory =
                    new GroupedIdSegmentDistributorFactory(
                            () -> GroupedKey.forever(group[0]),
                            new StoreIdSegmentDistributorFactory(ranges));
            IdSegmentDistributor distributor = factory.create(definition(0, 10));

            long first = distributor.nextMaxId(10);
            group[0] = "2026-12-06";
            long nextDay = distributor.nextMaxId(10);
            long nextDayAgain = distributor.nextMaxId(10);

            assertThat(first).isEqualTo(10);
            assertThat(nextDay).isEqualTo(10);
            assertThat(nextDayAgain).isEqualTo(20);
            assertThat(ranges.list().keySet())
                    .hasSize(2)
                    .allSatisfy(k -> assertThat(k).startsWith("shop.order"))
                    .anySatisfy(k -> assertThat(k).contains("2026-12-05"))
                    .anySatisfy(k -> assertThat(k).contains("2026-12-06"));
        }

        /** {@code total} IDs from one generator per store, 4 stores on one key: all distinct. */
        private void assertUnique(
                Function<IdSegmentDistributor, SegmentId> generator, int total, long step)
                throws Exception {
            long offset = 1_000_000;
            List<Callable<long[]>> tasks = new ArrayList<>();
            for (int s = 0; s < STORES; s++) {
                SegmentId ids =
                        generator.apply(
                                new StoreIdSegmentDistributorFactory(ranges())
                                        .create(definition(offset, step)));
                tasks.add(Generating.take(total / STORES, ids::generate));
            }
            long[] all = generating.all(tasks);

            assertThat(all).hasSize(total);
            assertThat(all[0]).isGreaterThan(offset);
            Generating.assertNoneTwice(all);
        }
    }
}
