package io.cosid.store.micrometer;

import io.micrometer.common.docs.KeyName;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import io.micrometer.observation.docs.ObservationDocumentation;

/** The observations cosid-store makes, and their keys, for Micrometer's documentation tools. */
public enum StoreObservationDocumentation implements ObservationDocumentation {

    /** One store operation, from its call to its return. */
    OPERATION {
        @Override
        public Class<? extends ObservationConvention<? extends Observation.Context>>
                getDefaultConvention() {
            return DefaultStoreObservationConvention.class;
        }

        @Override
        public KeyName[] getLowCardinalityKeyNames() {
            return LowCardinalityKeyNames.values();
        }

        @Override
        public KeyName[] getHighCardinalityKeyNames() {
            return HighCardinalityKeyNames.values();
        }
    };

    /** Keys with few values: fit for meter tags. */
    public enum LowCardinalityKeyNames implements KeyName {
        /** The store's name. */
        STORE("store"),
        /** The store's backend type. */
        TYPE("type"),
        /** The operation: {@code range.acquire}, {@code slot.renew}, ... */
        OPERATION("operation"),
        /** How it ended: {@code success}, {@code lease.lost}, {@code timed.out}, ... */
        OUTCOME("outcome");

        private final String key;

        LowCardinalityKeyNames(String key) {
            this.key = key;
        }

        @Override
        public String asString() {
            return key;
        }
    }

    /** Keys with many values: spans only, never meter tags. */
    public enum HighCardinalityKeyNames implements KeyName {
        /** The range key or namespace the operation was about; empty for a list or a purge. */
        SUBJECT("subject");

        private final String key;

        HighCardinalityKeyNames(String key) {
            this.key = key;
        }

        @Override
        public String asString() {
            return key;
        }
    }
}
