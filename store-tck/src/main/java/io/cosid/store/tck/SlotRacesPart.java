package io.cosid.store.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cosid.store.LeaseLostException;
import io.cosid.store.SlotLease;
import io.cosid.store.SlotsExhaustedException;
import io.cosid.store.Store;
import io.cosid.store.StoreCorruptedException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The SlotLeaseStore contract under concurrency and on corrupt data (docs/contract.md, "Invariants"
 * and "Corrupt data"). Runs as part of {@link SlotLeaseStoreContract}.
 */
abstract class SlotRacesPart extends SlotTermsPart {

    @Nested
    @DisplayName("concurrency")
    class Concurrency {

        @Test
        @DisplayName(
                "33 owners racing for a 32-slot namespace get 32 distinct slots; exactly one is"
                        + " refused")
        void race() throws Exception {
            define(32);
            int owners = 33;
            HistoryRecorder recorder = new HistoryRecorder();
            List<Store> stores = new ArrayList<>();
            for (int i = 0; i < owners; i++) {
                stores.add(anotherStore());
            }
            ExecutorService pool = Executors.newFixedThreadPool(owners);
            CountDownLatch start = new CountDownLatch(1);
            AtomicInteger refused = new AtomicInteger();
            try {
                List<Future<Optional<SlotLease>>> results = new ArrayList<>();
                for (int i = 0; i < owners; i++) {
                    Store s = stores.get(i);
                    String owner = "owner-" + i;
                    results.add(
                            pool.submit(
                                    () -> {
                                        start.await();
                                        try {
                                            return Optional.of(
                                                    recorder.acquire(
                                                            s.slots(), NS, owner, LONG_TTL, 32));
                                        } catch (SlotsExhaustedException e) {
                                            refused.incrementAndGet();
                                            return Optional.<SlotLease>empty();
                                        }
                                    }));
                }
                start.countDown();
                List<SlotLease> leases = new ArrayList<>();
                for (Future<Optional<SlotLease>> f : results) {
                    f.get(60, TimeUnit.SECONDS).ifPresent(leases::add);
                }
                assertThat(refused).hasValue(1);
                Set<Integer> distinct =
                        leases.stream().map(SlotLease::slot).collect(Collectors.toSet());
                assertThat(distinct).hasSize(32).allMatch(s -> s >= 0 && s < 32);
                HistoryChecker.check(recorder.events()).assertValid();
            } finally {
                pool.shutdownNow();
            }
        }

        @Test
        @DisplayName(
                "owners churning through acquire, renew, release and expiry never overlap (history"
                        + " check)")
        void churn() throws Exception {
            define(4);
            Duration ttl = expiringTtl();
            boolean manual = fixture.manualClock().isPresent();
            HistoryRecorder recorder = new HistoryRecorder();
            int clients = 8;
            ExecutorService pool = Executors.newFixedThreadPool(clients);
            try {
                List<Future<?>> results = new ArrayList<>();
                for (int c = 0; c < clients; c++) {
                    Store s = anotherStore();
                    String owner = "churn-" + c;
                    results.add(
                            pool.submit(
                                    () -> {
                                        churnAs(s, owner, ttl, manual, recorder);
                                        return null;
                                    }));
                }
                for (Future<?> f : results) {
                    f.get(120, TimeUnit.SECONDS);
                }
                HistoryChecker.Report report =
                        HistoryChecker.check(recorder.events()).assertValid();
                assertThat(report.terms()).isGreaterThan(4);
            } finally {
                pool.shutdownNow();
            }
        }

        /** One client of the churn: random acquires, renews, releases, walks away, time passing. */
        private void churnAs(
                Store s, String owner, Duration ttl, boolean manual, HistoryRecorder recorder) {
            ThreadLocalRandom random = ThreadLocalRandom.current();
            SlotLease lease = null;
            for (int i = 0; i < (manual ? 300 : 40); i++) {
                try {
                    int op = random.nextInt(10);
                    if (op == 9) {
                        if (manual) {
                            fixture.manualClock().get().advance(ttl.dividedBy(3));
                        } else {
                            passStoreTime(ttl.dividedBy(4));
                        }
                    } else if (lease == null) {
                        lease = recorder.acquire(s.slots(), NS, owner, ttl, 4);
                    } else if (op < 5) {
                        lease = recorder.renew(s.slots(), lease);
                    } else if (op < 7) {
                        recorder.release(s.slots(), lease);
                        lease = null;
                    } else {
                        lease = null; // walk away without releasing: the lease expires
                    }
                } catch (SlotsExhaustedException | LeaseLostException e) {
                    lease = null;
                }
            }
        }
    }

    @Nested
    @DisplayName("corrupt data")
    class CorruptData {

        @Test
        @DisplayName("a corrupt slot is reported when an acquire must read it, and left untouched")
        void corruptSlot() {
            Tampering tampering = tampering();
            define(4);
            tampering.corruptSlot(NS, 0, "fence=banana");
            Object before = tampering.snapshot();
            assertThatThrownBy(() -> acquire("a"))
                    .isInstanceOf(StoreCorruptedException.class)
                    .hasMessageContaining(NS);
            assertThatThrownBy(() -> slots().inspect(NS))
                    .isInstanceOf(StoreCorruptedException.class);
            assertThat(tampering.snapshot()).isEqualTo(before);
        }

        @Test
        @DisplayName(
                "a held slot that turns corrupt refuses renew and release and is left untouched")
        void corruptHeldSlot() {
            Tampering tampering = tampering();
            define(4);
            SlotLease lease = acquire("a");
            tampering.corruptSlot(NS, lease.slot(), "\u0000\u0001");
            Object before = tampering.snapshot();
            assertThatThrownBy(() -> slots().renew(lease))
                    .isInstanceOf(StoreCorruptedException.class);
            assertThatThrownBy(() -> slots().release(lease))
                    .isInstanceOf(StoreCorruptedException.class);
            assertThat(tampering.snapshot()).isEqualTo(before);
        }

        @Test
        @DisplayName(
                "a slot deleted behind the store's back is refused by renew, release and acquire,"
                        + " never recreated")
        void deletedSlot() {
            Tampering tampering = tampering();
            define(1);
            SlotLease lease = acquire("a");
            tampering.deleteSlot(NS, lease.slot());
            Object before = tampering.snapshot();
            assertThatThrownBy(() -> slots().renew(lease))
                    .isInstanceOf(StoreCorruptedException.class)
                    .hasMessageContaining("deleted")
                    .hasMessageContaining("fence " + (lease.fence() + 1));
            assertThatThrownBy(() -> slots().release(lease))
                    .isInstanceOf(StoreCorruptedException.class);
            assertThatThrownBy(() -> acquire("b"))
                    .isInstanceOf(StoreCorruptedException.class)
                    .hasMessageContaining("slot " + lease.slot());
            assertThat(tampering.snapshot()).isEqualTo(before);
        }

        @Test
        @DisplayName(
                "a slot started over by a store that never saw it is refused by every store that"
                        + " did")
        void restartedSlot() {
            Tampering tampering = tampering();
            define(2);
            SlotLease first = acquire("a");
            slots().release(first, first.floor());
            SlotLease lease = slots().renew(acquire("a"));
            assertThat(lease.fence()).isEqualTo(2);
            Store witness = anotherStore();
            assertThat(witness.slots().inspect(NS).slots()).isNotEmpty();
            witness.slots().acquire(NS, "w", LONG_TTL); // reads slot 0 as held by "a"
            tampering.deleteSlot(NS, lease.slot());
            SlotLease restarted = anotherStore().slots().acquire(NS, "b", LONG_TTL, lease.slot());
            assertThat(restarted.fence())
                    .as("a store that never saw the slot cannot tell")
                    .isEqualTo(1);
            Object before = tampering.snapshot();
            assertThatThrownBy(() -> slots().renew(lease))
                    .isInstanceOf(StoreCorruptedException.class)
                    .hasMessageContaining("fence went back");
            assertThatThrownBy(() -> acquire("c")).isInstanceOf(StoreCorruptedException.class);
            assertThatThrownBy(() -> witness.slots().acquire(NS, "d", LONG_TTL))
                    .isInstanceOf(StoreCorruptedException.class);
            assertThat(tampering.snapshot()).isEqualTo(before);
        }

        @Test
        @DisplayName(
                "a deleted slot advanced past what the store saw is accepted again (the repair)")
        void deletedSlotRepaired() {
            Tampering tampering = tampering();
            define(1);
            SlotLease lease = acquire("a");
            tampering.deleteSlot(NS, lease.slot());
            assertThatThrownBy(() -> acquire("b")).isInstanceOf(StoreCorruptedException.class);
            anotherStore().slots().advance(NS, lease.slot(), lease.fence() + 1, lease.ceiling());
            assertThatThrownBy(() -> slots().renew(lease))
                    .as("its term is over")
                    .isInstanceOf(LeaseLostException.class);
            SlotLease next = acquire("b");
            assertThat(next.fence()).isEqualTo(lease.fence() + 2);
            assertThat(next.floor()).isAfterOrEqualTo(lease.ceiling());
        }

        @Test
        @DisplayName(
                "a corrupt namespace is reported by define, acquire and inspect, and left"
                        + " untouched")
        void corruptNamespace() {
            Tampering tampering = tampering();
            define(4);
            tampering.corruptNamespace(NS, "limit=-3");
            Object before = tampering.snapshot();
            assertThatThrownBy(() -> define(4))
                    .isInstanceOf(StoreCorruptedException.class)
                    .hasMessageContaining(NS);
            assertThatThrownBy(() -> acquire("a")).isInstanceOf(StoreCorruptedException.class);
            assertThatThrownBy(() -> slots().inspect(NS))
                    .isInstanceOf(StoreCorruptedException.class);
            assertThat(tampering.snapshot()).isEqualTo(before);
        }

        @Test
        @DisplayName(
                "a corrupt owner index is reported by that owner's acquire, and left untouched")
        void corruptOwnerIndex() {
            Tampering tampering = tampering();
            define(4);
            slots().release(acquire("a"));
            tampering.corruptOwnerIndex(NS, "a", "zero,one");
            Object before = tampering.snapshot();
            assertThatThrownBy(() -> acquire("a"))
                    .isInstanceOf(StoreCorruptedException.class)
                    .hasMessageContaining("a");
            assertThat(tampering.snapshot()).isEqualTo(before);
            assertThat(acquire("b").slot()).isZero();
        }
    }
}
