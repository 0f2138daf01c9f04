package io.cosid.store.inmemory;

import io.cosid.store.Namespace;
import io.cosid.store.RangeState;
import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.spi.ObservedStore;
import io.cosid.store.spi.SlotState;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * The shared state of in-memory stores: what a server is to the ZooKeeper backend. Stores opened on
 * one backend see the same ranges, namespaces and slots, as separate processes sharing one server
 * would; each keeps its own view of which nodes it wrote. The backend's clock is the store's clock.
 *
 * <p>One lock guards all state. That is the whole concurrency design: each operation reads and
 * writes under it, so every operation is atomic and the rules in {@link SlotState} and {@link
 * InMemoryRangeStore} read as sequential code.
 */
public final class InMemoryBackend {

    final ReentrantLock lock = new ReentrantLock();
    final Map<String, Node<RangeState>> ranges = new TreeMap<>();
    final Map<String, Node<Namespace>> namespaces = new TreeMap<>();
    final Map<String, TreeMap<Integer, Node<SlotState>>> slots = new TreeMap<>();
    final Map<String, TreeMap<String, Node<List<Integer>>>> ownerIndex = new TreeMap<>();

    private final InstantSource clock;
    private long lastGeneration;

    private InMemoryBackend(InstantSource clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * A backend on the system clock.
     *
     * @return a new, empty backend
     */
    public static InMemoryBackend create() {
        return new InMemoryBackend(InstantSource.system());
    }

    /**
     * A backend on a given clock, which tests may step forward and backward.
     *
     * @param clock the store's clock
     * @return a new, empty backend
     */
    public static InMemoryBackend create(InstantSource clock) {
        return new InMemoryBackend(clock);
    }

    /**
     * Opens a store on this backend, named {@code in-memory} with the default timeout.
     *
     * @return a new store; close it when done
     */
    public Store open() {
        return open("in-memory", StoreConfig.DEFAULT_TIMEOUT);
    }

    /**
     * Opens a store on this backend.
     *
     * @param name the store's name
     * @param timeout how long an operation may wait for the backend's lock before it times out
     * @return a new store; close it when done
     */
    public Store open(String name, Duration timeout) {
        return new InMemoryStore(this, name, timeout);
    }

    /**
     * Opens a store on this backend with a configuration's name, timeout and observer (its type and
     * options are the provider's to check).
     *
     * @param config the store's configuration
     * @return a new store that reports to {@code config.observer()}; close it when done
     */
    public Store open(StoreConfig config) {
        return ObservedStore.observe(open(config.name(), config.timeout()), config.observer());
    }

    /**
     * The store's clock.
     *
     * @return the clock this backend reads "now" from
     */
    public InstantSource clock() {
        return clock;
    }

    /**
     * The backend's now, as its stores read it: whole milliseconds, as every store's instants are
     * (a TCK fixture's {@code storeNow}).
     *
     * @return the instant
     */
    public Instant now() {
        return Instant.ofEpochMilli(clock.millis());
    }

    /** A fresh creation id for a node: never reused, like ZooKeeper's czxid. */
    long nextGeneration() {
        return ++lastGeneration;
    }

    // ---- Tampering, for the TCK's corrupt-data tests (package-private: not part of the API) ----

    /** Replaces a node's data in place (same generation), as a write by hand would. */
    void corruptRange(String key, String garbage) {
        withLock(() -> ranges.put(key, Node.corrupt(garbage, generationOf(ranges.get(key)))));
    }

    private long generationOf(@Nullable Node<?> node) {
        return node == null ? nextGeneration() : node.generation();
    }

    /**
     * Writes a valid state over a range node in place (same generation), as a write by hand would.
     */
    void rewriteRange(String key, RangeState state) {
        withLock(() -> ranges.put(key, existing(ranges.get(key), "range key " + key).with(state)));
    }

    /** Deletes a slot node, as an operator might by hand. */
    void deleteSlot(String namespace, int slot) {
        withLock(() -> existing(slots.get(namespace), "namespace " + namespace).remove(slot));
    }

    /**
     * Deletes a range node and creates it again with the same value, as an operator might by hand.
     */
    void recreateRange(String key) {
        withLock(
                () -> {
                    Node<RangeState> old = existing(ranges.get(key), "range key " + key);
                    ranges.put(key, new Node<>(old.value(), old.garbage(), nextGeneration(), 0));
                });
    }

    /**
     * A node a tampering call works on: a test that tampers with a node it never created is wrong.
     */
    private static <T> T existing(@Nullable T node, String what) {
        if (node == null) {
            throw new IllegalStateException("cannot tamper with " + what + ": it does not exist");
        }
        return node;
    }

    void corruptNamespace(String namespace, String garbage) {
        withLock(
                () ->
                        namespaces.put(
                                namespace,
                                Node.corrupt(garbage, generationOf(namespaces.get(namespace)))));
    }

    void corruptSlot(String namespace, int slot, String garbage) {
        withLock(
                () ->
                        slots.computeIfAbsent(namespace, n -> new TreeMap<>())
                                .put(slot, Node.corrupt(garbage, nextGeneration())));
    }

    void corruptOwnerIndex(String namespace, String ownerKey, String garbage) {
        withLock(
                () ->
                        ownerIndex
                                .computeIfAbsent(namespace, n -> new TreeMap<>())
                                .put(ownerKey, Node.corrupt(garbage, nextGeneration())));
    }

    /** Everything stored, as immutable values that compare equal exactly when nothing changed. */
    Object snapshot() {
        lock.lock();
        try {
            Map<String, Object> copy = new TreeMap<>();
            copy.put("ranges", Map.copyOf(ranges));
            copy.put("namespaces", Map.copyOf(namespaces));
            slots.forEach((ns, m) -> copy.put("slots/" + ns, Map.copyOf(m)));
            ownerIndex.forEach((ns, m) -> copy.put("owners/" + ns, Map.copyOf(m)));
            return copy;
        } finally {
            lock.unlock();
        }
    }

    private void withLock(Runnable change) {
        lock.lock();
        try {
            change.run();
        } finally {
            lock.unlock();
        }
    }
}
