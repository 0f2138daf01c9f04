package io.cosid.store;

import java.util.Set;

/**
 * A provider that only records the configuration it was opened with, to test the lookup by type.
 */
public class EchoStoreProvider implements StoreProvider {

    static volatile StoreConfig lastOpened;

    /** Creates the provider; ServiceLoader calls this. */
    public EchoStoreProvider() {}

    @Override
    public String type() {
        return "echo";
    }

    @Override
    public Set<String> optionKeys() {
        return Set.of("color");
    }

    @Override
    public Store open(StoreConfig config) {
        config.requireKnownOptions(optionKeys());
        lastOpened = config;
        return new Store() {
            @Override
            public String name() {
                return config.name();
            }

            @Override
            public String type() {
                return "echo";
            }

            @Override
            public RangeStore ranges() {
                throw new UnsupportedOperationException("echo has no ranges");
            }

            @Override
            public SlotLeaseStore slots() {
                throw new UnsupportedOperationException("echo has no slots");
            }

            @Override
            public void close() {}
        };
    }
}
