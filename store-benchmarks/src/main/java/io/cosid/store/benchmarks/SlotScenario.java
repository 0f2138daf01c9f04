package io.cosid.store.benchmarks;

import io.cosid.store.SlotLease;
import io.cosid.store.Store;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The slot-lease scenario of the side-by-side harness: acquire, renew and release rates, and an
 * acquire in a crowded namespace.
 */
final class SlotScenario {

    private final SideBySide h;

    SlotScenario(SideBySide h) {
        this.h = h;
    }

    void slots() {
        Table table =
                new Table(
                        "Slot leases (ours): cost per operation, requests counted by the server",
                        "operation",
                        "ops",
                        "median us",
                        "p99 us",
                        "requests/op");
        try (Store store = Contender.Ours.openStore(h.connectString(), Contender.Policy.DEFAULT)) {
            store.slots().define("index", 1024, Duration.ofSeconds(1));
            store.slots().define("crowd", 1024, Duration.ofSeconds(1));
            OpStats indexHit = new OpStats();
            OpStats release = new OpStats();
            measure(
                    h.settings().run(),
                    () -> {
                        SlotLease lease =
                                indexHit.time(
                                        () ->
                                                store.slots()
                                                        .acquire(
                                                                "index", "host-a", SideBySide.TTL));
                        // nothing was stamped: hand the whole window back, so floors do not creep
                        // ahead run after run
                        release.time(() -> store.slots().release(lease, lease.floor()));
                    });
            OpStats filling = new OpStats();
            for (int i = 0; i < h.settings().held(); i++) {
                int owner = i;
                filling.time(() -> store.slots().acquire("crowd", "held-" + owner, SideBySide.TTL));
            }
            OpStats crowded = crowded(store);
            OpStats renew = new OpStats();
            SlotLease[] held = {store.slots().acquire("index", "host-r", SideBySide.TTL)};
            measure(
                    h.settings().run(),
                    () -> held[0] = renew.time(() -> store.slots().renew(held[0])));
            indexHit.row(table, "acquire, owner-index hit");
            filling.row(
                    table,
                    "acquire, fresh, 1024-slot namespace filling 0 -> " + h.settings().held());
            crowded.row(
                    table,
                    "acquire, fresh, 1024-slot namespace with " + h.settings().held() + " held");
            renew.row(table, "renew");
            release.row(table, "release");
        }
        h.publish(table);
    }

    /** Fresh acquires, each released at once, in the crowded namespace. */
    private OpStats crowded(Store store) {
        OpStats crowded = new OpStats();
        AtomicLong n = new AtomicLong();
        measure(
                h.settings().run(),
                () -> {
                    SlotLease lease =
                            crowded.time(
                                    () ->
                                            store.slots()
                                                    .acquire(
                                                            "crowd",
                                                            "new-" + n.incrementAndGet(),
                                                            SideBySide.TTL));
                    store.slots().release(lease, lease.floor());
                });
        return crowded;
    }

    /** Latencies and server-counted requests of one operation, each timed on its own. */
    final class OpStats {
        final Latencies latencies = new Latencies();
        long requests;

        <T> T time(Supplier<T> op) {
            long before = h.counters().received();
            long start = System.nanoTime();
            T result = op.get();
            latencies.add(System.nanoTime() - start);
            requests += h.counters().since(before);
            return result;
        }

        void row(Table table, String name) {
            table.row(
                    name,
                    latencies.count(),
                    latencies.medianMicros(),
                    latencies.p99Micros(),
                    requests / (double) latencies.count());
        }
    }

    static void measure(Duration length, Runnable step) {
        long end = System.nanoTime() + length.toNanos();
        while (System.nanoTime() < end) {
            step.run();
        }
    }
}
