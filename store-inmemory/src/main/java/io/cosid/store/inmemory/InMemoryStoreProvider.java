package io.cosid.store.inmemory;

import io.cosid.store.Store;
import io.cosid.store.StoreConfig;
import io.cosid.store.StoreProvider;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Provider of type {@value #TYPE}. Each store gets a backend of its own unless option {@code
 * backend} names a backend to share with other stores of this JVM that name the same one (as
 * processes share a server).
 */
public final class InMemoryStoreProvider implements StoreProvider {

    /** The type name of this backend. */
    public static final String TYPE = "in-memory";

    private static final Map<String, InMemoryBackend> SHARED = new ConcurrentHashMap<>();

    /** Creates the provider; {@link java.util.ServiceLoader} calls this. */
    public InMemoryStoreProvider() {}

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public Set<String> optionKeys() {
        return Set.of("backend");
    }

    @Override
    public Store open(StoreConfig config) {
        config.requireKnownOptions(optionKeys());
        String shared = config.option("backend", null);
        InMemoryBackend backend =
                shared == null
                        ? InMemoryBackend.create()
                        : SHARED.computeIfAbsent(shared, n -> InMemoryBackend.create());
        return backend.open(config);
    }
}
