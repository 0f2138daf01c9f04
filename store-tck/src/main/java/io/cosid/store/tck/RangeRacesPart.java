package io.cosid.store.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.cosid.store.Range;
import io.cosid.store.RangeExhaustedException;
import io.cosid.store.RangeSealedException;
import io.cosid.store.RangeState;
import io.cosid.store.RangeStore;
import io.cosid.store.Store;
import io.cosid.store.StoreCorruptedException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The RangeStore contract under concurrency, purge, and on corrupt or recreated data
 * (docs/contract.md, "RangeStore" and "Corrupt data"). Runs as part of {@link RangeStoreContract},
 * its subclass, on that class's fixture.
 */
abstract class RangeRacesPart extends StoreContractSupport {

    RangeStore ranges() {
        return store.ranges();
    }

    @Nested
    @DisplayName("concurrency")
    class Concurrency {

        @Test
        @DisplayName(
                "8 store instances racing on one key get disjoint ranges and, without faults, no"
                        + " gaps")
        void racingInstances() throws Exception {
            int clients = 8;
            int perClient = 250;
            HistoryRecorder recorder = new HistoryRecorder();
            List<Store> stores = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                stores.add(anotherStore());
            }
            ExecutorService pool = Executors.newFixedThreadPool(clients);
            try {
                List<Future<Long>> results = new ArrayList<>();
                for (Store s : stores) {
                    Callable<Long> client =
                            () -> {
                                long values = 0;
                                for (int i = 0; i < perClient; i++) {
                                    values +=
                                            recorder.acquire(
                                                            s.ranges(),
                                                            "hot",
                                                            1
                                                                    + ThreadLocalRandom.current()
                                                                            .nextInt(10))
                                                    .size();
                                }
                                return values;
                            };
                    results.add(pool.submit(client));
                }
                long total = 0;
                for (Future<Long> f : results) {
                    total += f.get();
                }
                HistoryChecker.Report report =
                        HistoryChecker.check(recorder.events()).assertValid();
                assertThat(report.ranges()).isEqualTo((long) clients * perClient);
                assertThat(report.gaps()).isZero();
                assertThat(ranges().peek("hot")).contains(new RangeState(total, false));
            } finally {
                pool.shutdownNow();
            }
        }
    }

    @Nested
    @DisplayName("purge (operators only)")
    class Purge {

        @Test
        @DisplayName(
                "deletes every key, namespace and slot; a new store instance starts from nothing")
        void purgesEverything() {
            assumeThat(store.admin()).as("this backend offers no admin actions").isPresent();
            ranges().acquire("orders", 10);
            store.slots().define("workers", 2, Duration.ZERO);
            store.slots().acquire("workers", "a", Duration.ofMinutes(1));
            store.admin().orElseThrow().purge();
            Store fresh = anotherStore();
            assertThat(fresh.ranges().list()).isEmpty();
            assertThat(fresh.slots().namespaces()).isEmpty();
            assertThat(fresh.ranges().acquire("orders", 1).start()).isZero();
        }
    }

    @Nested
    @DisplayName("corrupt or recreated data")
    class CorruptData {

        @Test
        @DisplayName("data that does not parse is reported by every operation and left untouched")
        void corruptIsReported() {
            Tampering tampering = tampering();
            ranges().acquire("orders", 5);
            tampering.corruptRange("orders", "12x:sealed?");
            Object before = observableRaw(tampering);
            assertThatThrownBy(() -> ranges().acquire("orders", 1))
                    .isInstanceOf(StoreCorruptedException.class)
                    .hasMessageContaining("orders");
            assertThatThrownBy(() -> ranges().peek("orders"))
                    .isInstanceOf(StoreCorruptedException.class);
            assertThatThrownBy(() -> ranges().advance("orders", 100))
                    .isInstanceOf(StoreCorruptedException.class);
            assertThatThrownBy(() -> ranges().seal("orders"))
                    .isInstanceOf(StoreCorruptedException.class);
            assertThatThrownBy(() -> anotherStore().ranges().acquire("orders", 1))
                    .isInstanceOf(StoreCorruptedException.class);
            assertThat(observableRaw(tampering)).isEqualTo(before);
        }

        @Test
        @DisplayName(
                "a node recreated behind the store's back is refused by the store that wrote it")
        void recreatedIsRefused() {
            Tampering tampering = tampering();
            // Several writes first, as in real use: a recreated node starts over at its first
            // version, and a compare-and-set can only tell it apart while the versions differ
            // (docs/contract.md, RangeStore).
            ranges().acquire("orders", 5);
            ranges().acquire("orders", 5);
            ranges().acquire("orders", 5);
            tampering.recreateRange("orders");
            Object before = observableRaw(tampering);
            assertThatThrownBy(() -> ranges().acquire("orders", 1))
                    .isInstanceOf(StoreCorruptedException.class)
                    .hasMessageContaining("orders")
                    .hasMessageContaining("recreated");
            assertThat(observableRaw(tampering)).isEqualTo(before);
        }

        @Test
        @DisplayName(
                "a counter lowered behind the store's back is refused by every store that saw it"
                        + " higher, and left untouched")
        void loweredIsRefused() {
            Tampering tampering = tampering();
            Store other = anotherStore();
            ranges().acquire("orders", 1000);
            assertThat(other.ranges().acquire("orders", 1000).end()).isEqualTo(2000);
            assertThat(ranges().peek("orders")).contains(new RangeState(2000, false));
            tampering.rewriteRange("orders", 1000, false); // an operator's write on the same node
            Object before = observableRaw(tampering);
            assertThatThrownBy(() -> ranges().acquire("orders", 1))
                    .isInstanceOf(StoreCorruptedException.class)
                    .hasMessageContaining("orders")
                    .hasMessageContaining("below 2000");
            assertThatThrownBy(() -> other.ranges().acquire("orders", 1))
                    .isInstanceOf(StoreCorruptedException.class)
                    .hasMessageContaining("below 2000");
            assertThatThrownBy(() -> ranges().advance("orders", 1500))
                    .isInstanceOf(StoreCorruptedException.class);
            assertThatThrownBy(() -> other.ranges().seal("orders"))
                    .isInstanceOf(StoreCorruptedException.class);
            assertThat(observableRaw(tampering)).isEqualTo(before);
        }

        @Test
        @DisplayName("a sealed key unsealed behind the store's back is refused")
        void unsealedIsRefused() {
            Tampering tampering = tampering();
            ranges().acquire("orders", 10);
            ranges().seal("orders");
            tampering.rewriteRange("orders", 10, false);
            Object before = observableRaw(tampering);
            assertThatThrownBy(() -> ranges().peek("orders"))
                    .isInstanceOf(StoreCorruptedException.class)
                    .hasMessageContaining("unsealed");
            // a store may also answer from what it knows: the key is sealed for good
            assertThatThrownBy(() -> ranges().acquire("orders", 1))
                    .isInstanceOfAny(StoreCorruptedException.class, RangeSealedException.class);
            assertThat(observableRaw(tampering)).isEqualTo(before);
        }

        @Test
        @DisplayName(
                "a store refused as sealed remembers what the refusal showed: the key unsealed"
                        + " and lowered behind its back is refused, not handed out again")
        void refusedAsSealedRemembersTheRefusal() {
            Tampering tampering = tampering();
            Store other = anotherStore();
            ranges().acquire("orders", 10);
            other.ranges().acquire("orders", 2270);
            tampering.rewriteRange("orders", 2280, true); // sealed by hand, at 2280
            assertThatThrownBy(() -> ranges().acquire("orders", 10))
                    .isInstanceOf(RangeSealedException.class);
            tampering.rewriteRange("orders", 110, false); // unsealed and lowered by hand
            Object before = observableRaw(tampering);
            assertThatThrownBy(() -> ranges().acquire("orders", 10))
                    .isInstanceOf(StoreCorruptedException.class)
                    .hasMessageContaining("orders")
                    .hasMessageContaining("below 2280");
            assertThatThrownBy(() -> ranges().advance("orders", 5000))
                    .isInstanceOf(StoreCorruptedException.class);
            assertThat(observableRaw(tampering)).isEqualTo(before);
        }

        @Test
        @DisplayName(
                "a store refused as sealed refuses the key once it is unsealed behind its back,"
                        + " though it never wrote it sealed")
        void refusedAsSealedRefusesTheUnsealedKey() {
            Tampering tampering = tampering();
            Store other = anotherStore();
            ranges().acquire("orders", 10);
            long sealedAt = other.ranges().seal("orders");
            assertThatThrownBy(() -> ranges().advance("orders", 100))
                    .isInstanceOf(RangeSealedException.class);
            tampering.rewriteRange("orders", sealedAt, false); // unsealed by hand only
            Object before = observableRaw(tampering);
            assertThatThrownBy(() -> ranges().acquire("orders", 1))
                    .isInstanceOf(StoreCorruptedException.class)
                    .hasMessageContaining("unsealed");
            assertThatThrownBy(() -> ranges().peek("orders"))
                    .isInstanceOf(StoreCorruptedException.class)
                    .hasMessageContaining("unsealed");
            assertThat(observableRaw(tampering)).isEqualTo(before);
        }

        @Test
        @DisplayName(
                "a store refused as exhausted remembers the counter it saw: lowered behind its"
                        + " back, the key is refused")
        void refusedAsExhaustedRemembersTheRefusal() {
            Tampering tampering = tampering();
            Store other = anotherStore();
            ranges().acquire("orders", 10);
            other.ranges().advance("orders", Long.MAX_VALUE - 5);
            assertThatThrownBy(() -> ranges().acquire("orders", 10))
                    .isInstanceOf(RangeExhaustedException.class);
            tampering.rewriteRange("orders", 100, false);
            Object before = observableRaw(tampering);
            // a size that fits below the counter the refusal showed, so the store must look
            assertThatThrownBy(() -> ranges().acquire("orders", 1))
                    .isInstanceOf(StoreCorruptedException.class)
                    .hasMessageContaining("below " + (Long.MAX_VALUE - 5));
            assertThat(observableRaw(tampering)).isEqualTo(before);
        }

        @Test
        @DisplayName(
                "a lowered counter raised again to what the store saw is accepted again (the"
                        + " repair)")
        void repairedByAdvance() {
            Tampering tampering = tampering();
            ranges().acquire("orders", 1000);
            tampering.rewriteRange("orders", 10, false);
            assertThatThrownBy(() -> ranges().acquire("orders", 1))
                    .isInstanceOf(StoreCorruptedException.class);
            assertThat(anotherStore().ranges().advance("orders", 1000)).isEqualTo(1000);
            assertThat(ranges().acquire("orders", 5)).isEqualTo(new Range("orders", 1000, 1005));
        }

        private Object observableRaw(Tampering tampering) {
            return tampering.snapshot();
        }
    }
}
