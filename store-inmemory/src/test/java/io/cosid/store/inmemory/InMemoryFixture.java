package io.cosid.store.inmemory;

import io.cosid.store.RangeState;
import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.StoreObserver;
import io.cosid.store.tck.ManualClock;
import io.cosid.store.tck.StoreFixture;
import io.cosid.store.tck.Tampering;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The TCK's view of the in-memory backend: a manual clock and full tampering. */
final class InMemoryFixture implements StoreFixture, Tampering {

    private final ManualClock clock = new ManualClock(Instant.parse("2026-12-02T10:00:00Z"));
    private final InMemoryBackend backend = InMemoryStores.backend(clock);
    private final List<Store> opened = new ArrayList<>();

    @Override
    public synchronized Store openStore() {
        Store store = backend.open();
        opened.add(store);
        return store;
    }

    @Override
    public synchronized Optional<Store> openObservedStore(StoreObserver observer) {
        Store store =
                backend.open(
                        StoreConfig.of("in-memory", InMemoryStoreProvider.TYPE)
                                .withObserver(observer));
        opened.add(store);
        return Optional.of(store);
    }

    @Override
    public Instant storeNow() {
        return backend.now();
    }

    @Override
    public Optional<ManualClock> manualClock() {
        return Optional.of(clock);
    }

    @Override
    public Optional<Tampering> tampering() {
        return Optional.of(this);
    }

    @Override
    public synchronized void close() {
        opened.forEach(Store::close);
    }

    @Override
    public void corruptRange(String key, String garbage) {
        backend.corruptRange(key, garbage);
    }

    @Override
    public void rewriteRange(String key, long next, boolean sealed) {
        backend.rewriteRange(key, new RangeState(next, sealed));
    }

    @Override
    public void deleteSlot(String namespace, int slot) {
        backend.deleteSlot(namespace, slot);
    }

    @Override
    public void recreateRange(String key) {
        backend.recreateRange(key);
    }

    @Override
    public void corruptNamespace(String namespace, String garbage) {
        backend.corruptNamespace(namespace, garbage);
    }

    @Override
    public void corruptSlot(String namespace, int slot, String garbage) {
        backend.corruptSlot(namespace, slot, garbage);
    }

    @Override
    public void corruptOwnerIndex(String namespace, String ownerKey, String garbage) {
        backend.corruptOwnerIndex(namespace, ownerKey, garbage);
    }

    @Override
    public Object snapshot() {
        return backend.snapshot();
    }
}
