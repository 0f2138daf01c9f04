package io.cosid.store;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads the stores under {@code cosid.stores} from nested maps, flat dotted keys or a mix of both
 * ({@link StoreConfig#parseAll(Map)}), refusing what is not a store setting by its full key.
 */
final class SettingsReader {

    private static final String PREFIX = StoreConfig.PREFIX;

    private SettingsReader() {}

    /** Every store configured in {@code settings}, in name order. */
    static Map<String, StoreConfig> parseAll(Map<String, ?> settings) {
        Map<String, String> flat = new TreeMap<>();
        flatten("", settings, flat);
        Map<String, Map<String, String>> byStore = new TreeMap<>();
        for (Map.Entry<String, String> entry : flat.entrySet()) {
            if (!entry.getKey().startsWith(PREFIX)) {
                continue;
            }
            String rest = entry.getKey().substring(PREFIX.length());
            int dot = rest.indexOf('.');
            if (dot <= 0) {
                throw new IllegalArgumentException(
                        entry.getKey()
                                + " is not a store setting: use "
                                + PREFIX
                                + "<name>.type|timeout|options.<key>");
            }
            byStore.computeIfAbsent(rest.substring(0, dot), n -> new TreeMap<>())
                    .put(rest.substring(dot + 1), entry.getValue());
        }
        Map<String, StoreConfig> configs = new LinkedHashMap<>();
        byStore.forEach((name, values) -> configs.put(name, fromValues(name, values)));
        return Collections.unmodifiableMap(configs);
    }

    private static StoreConfig fromValues(String name, Map<String, String> values) {
        String path = PREFIX + name + ".";
        String type = null;
        Duration timeout = StoreConfig.DEFAULT_TIMEOUT;
        Map<String, String> options = new TreeMap<>();
        for (Map.Entry<String, String> e : values.entrySet()) {
            String key = e.getKey();
            if (key.equals("type")) {
                type = e.getValue().trim();
            } else if (key.equals("timeout")) {
                timeout = StoreConfig.parseDuration(path + key, e.getValue());
            } else if (key.startsWith("options.") && key.length() > "options.".length()) {
                options.put(key.substring("options.".length()), e.getValue());
            } else {
                throw new IllegalArgumentException(
                        path
                                + key
                                + " is not a store setting; a store has type, timeout and"
                                + " options.<key>");
            }
        }
        if (type == null || type.isEmpty()) {
            throw new IllegalArgumentException(
                    path + "type is missing; name the backend, e.g. zookeeper or in-memory");
        }
        return new StoreConfig(name, type, timeout, options);
    }

    private static void flatten(String prefix, Object value, Map<String, String> out) {
        if (value instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> e : map.entrySet()) {
                String key = String.valueOf(e.getKey());
                flatten(prefix.isEmpty() ? key : prefix + "." + key, e.getValue(), out);
            }
        } else if (value instanceof Iterable<?> || (value != null && value.getClass().isArray())) {
            if (prefix.startsWith(PREFIX)) {
                throw new IllegalArgumentException(prefix + " must be a single value, not a list");
            }
        } else if (value != null) {
            if (out.containsKey(prefix) && prefix.startsWith(PREFIX)) {
                throw new IllegalArgumentException(prefix + " is given twice (nested and dotted)");
            }
            out.put(prefix, String.valueOf(value));
        }
    }
}
