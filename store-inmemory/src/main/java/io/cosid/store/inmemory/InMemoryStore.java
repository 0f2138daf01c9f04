package io.cosid.store.inmemory;

import io.cosid.store.RangeStore;
import io.cosid.store.SlotLeaseStore;
import io.cosid.store.Store;
import io.cosid.store.StoreAdmin;
import io.cosid.store.spi.OperationNames;
import java.time.Duration;
import java.util.Optional;

/** Both stores of one in-memory store instance, sharing its lifecycle. */
final class InMemoryStore implements Store {

    private final InMemoryBackend backend;
    private final String name;
    private final Operations operations;
    private final InMemoryRangeStore ranges;
    private final InMemorySlotLeaseStore slots;

    InMemoryStore(InMemoryBackend backend, String name, Duration timeout) {
        this.backend = backend;
        this.name = name;
        this.operations = new Operations(backend, name, timeout);
        this.ranges = new InMemoryRangeStore(backend, operations);
        this.slots = new InMemorySlotLeaseStore(backend, operations);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String type() {
        return InMemoryStoreProvider.TYPE;
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
        return Optional.of(
                () ->
                        operations.run(
                                OperationNames.purge(name),
                                () -> {
                                    backend.ranges.clear();
                                    backend.namespaces.clear();
                                    backend.slots.clear();
                                    backend.ownerIndex.clear();
                                    return null;
                                }));
    }

    @Override
    public void close() {
        operations.close();
    }

    @Override
    public String toString() {
        return "InMemoryStore[" + name + "]";
    }
}
