package io.cosid.store.spring;

import io.cosid.store.StoreConfig;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The stores, under {@code cosid.stores} (docs/contract.md, "Configuration"); every other setting
 * of cosid-store's auto-configuration is under {@code cosid-store} ({@link
 * StoreIntegrationProperties}), apart from CosId's own keys.
 *
 * <pre>{@code
 * cosid:
 *   stores:
 *     main:
 *       type: zookeeper
 *       timeout: 3s
 *       options:
 *         connectString: zk-1:2181,zk-2:2181
 * }</pre>
 */
@ConfigurationProperties("cosid")
public class CosIdStoreProperties {

    /** Stores by name, each a Store bean. */
    private Map<String, StoreSettings> stores = new LinkedHashMap<>();

    /** Creates empty settings; Spring binds them. */
    public CosIdStoreProperties() {}

    /**
     * The stores by name.
     *
     * @return the stores
     */
    public Map<String, StoreSettings> getStores() {
        return stores;
    }

    /**
     * Sets the stores.
     *
     * @param stores the stores by name
     */
    public void setStores(Map<String, StoreSettings> stores) {
        this.stores = stores;
    }

    /** One store: {@code cosid.stores.<name>}. */
    public static class StoreSettings {

        /** Backend type, such as zookeeper or in-memory. */
        private @Nullable String type;

        /** Budget of each operation, retries included. */
        private Duration timeout = StoreConfig.DEFAULT_TIMEOUT;

        /**
         * Backend options (docs/contract.md, "Configuration"); keys match ignoring case and dashes,
         * so environment variables work.
         */
        private Map<String, String> options = new LinkedHashMap<>();

        /** Creates empty settings; Spring binds them. */
        public StoreSettings() {}

        /**
         * The backend's type.
         *
         * @return the type, null when not configured
         */
        public @Nullable String getType() {
            return type;
        }

        /**
         * Sets the backend's type.
         *
         * @param type the type
         */
        public void setType(@Nullable String type) {
            this.type = type;
        }

        /**
         * The operation budget.
         *
         * @return the timeout
         */
        public Duration getTimeout() {
            return timeout;
        }

        /**
         * Sets the operation budget.
         *
         * @param timeout the timeout
         */
        public void setTimeout(Duration timeout) {
            this.timeout = timeout;
        }

        /**
         * The backend's options.
         *
         * @return the options
         */
        public Map<String, String> getOptions() {
            return options;
        }

        /**
         * Sets the backend's options.
         *
         * @param options the options
         */
        public void setOptions(Map<String, String> options) {
            this.options = options;
        }
    }
}
