package io.cosid.store;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The configuration of one named store, in the shape users write it:
 *
 * <pre>{@code
 * cosid:
 *   stores:
 *     zk:
 *       type: zookeeper      # or: in-memory
 *       timeout: 3s
 *       options:
 *         connectString: zk-1:2181,zk-2:2181,zk-3:2181
 * }</pre>
 *
 * <p>{@link #parseAll(Map)} reads that shape from nested maps (as a YAML parser returns them), from
 * flat dotted keys ({@code cosid.stores.zk.type=zookeeper}, as in {@link Properties}), or from a
 * mix. Durations are written {@code 100ms}, {@code 3s}, {@code 2m}, {@code 1h}, {@code 1d} or in
 * ISO-8601 ({@code PT3S}).
 *
 * @param name the store's name, the key under {@code cosid.stores}
 * @param type the backend, as a {@link StoreProvider#type()} names it
 * @param timeout the budget of each store operation as a whole, retries included
 * @param options the backend's options, flat dotted keys to text values; unmodifiable
 * @param observer what the store reports to ({@link StoreObserver}); {@link StoreObserver#NONE}
 *     unless set with {@link #withObserver}
 */
public record StoreConfig(
        String name,
        String type,
        Duration timeout,
        Map<String, String> options,
        StoreObserver observer) {

    /** The timeout of a store whose configuration names none. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(3);

    /** The prefix under which stores are configured. */
    public static final String PREFIX = "cosid.stores.";

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]{1,64}");
    private static final Pattern TYPE = Pattern.compile("[a-z0-9][a-z0-9-]{0,63}");
    private static final Pattern SHORT_DURATION = Pattern.compile("(\\d{1,12})(ms|s|m|h|d)");

    /**
     * Checks the values and copies the options.
     *
     * @param name as described for the record
     * @param type as described for the record
     * @param timeout as described for the record
     * @param options as described for the record
     * @param observer as described for the record; null stands for {@link StoreObserver#NONE}
     * @throws IllegalArgumentException if the name, type or timeout breaks its rule
     */
    public StoreConfig {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException(
                    "store name '" + name + "' is invalid: use 1-64 letters, digits, '_' or '-'");
        }
        if (type == null || !TYPE.matcher(type).matches()) {
            throw new IllegalArgumentException(
                    PREFIX
                            + name
                            + ".type '"
                            + type
                            + "' is invalid: use 1-64 lowercase letters, digits or '-', e.g."
                            + " zookeeper or in-memory");
        }
        if (timeout == null
                || timeout.isNegative()
                || timeout.isZero()
                || timeout.compareTo(Duration.ofHours(1)) > 0) {
            throw new IllegalArgumentException(
                    PREFIX
                            + name
                            + ".timeout must be more than 0 and at most 1h, got "
                            + (timeout == null ? null : formatDuration(timeout)));
        }
        options = Collections.unmodifiableMap(new TreeMap<>(options == null ? Map.of() : options));
        observer = observer == null ? StoreObserver.NONE : observer;
    }

    /**
     * A configuration that reports to no observer.
     *
     * @param name the store's name
     * @param type the backend's type
     * @param timeout the budget of each operation
     * @param options the backend's options
     * @throws IllegalArgumentException if the name, type or timeout breaks its rule
     */
    public StoreConfig(String name, String type, Duration timeout, Map<String, String> options) {
        this(name, type, timeout, options, StoreObserver.NONE);
    }

    /**
     * A configuration with the default timeout and no options.
     *
     * @param name the store's name
     * @param type the backend's type
     * @return the configuration
     */
    public static StoreConfig of(String name, String type) {
        return new StoreConfig(name, type, DEFAULT_TIMEOUT, Map.of());
    }

    /**
     * This configuration with another timeout.
     *
     * @param newTimeout the timeout
     * @return a new configuration
     */
    public StoreConfig withTimeout(Duration newTimeout) {
        return new StoreConfig(name, type, newTimeout, options, observer);
    }

    /**
     * This configuration reporting to {@code newObserver} (in place of any observer set before;
     * {@link StoreObserver#all} combines several).
     *
     * @param newObserver the observer
     * @return a new configuration
     */
    public StoreConfig withObserver(StoreObserver newObserver) {
        return new StoreConfig(
                name, type, timeout, options, Objects.requireNonNull(newObserver, "observer"));
    }

    /**
     * This configuration with one more option (or one replaced).
     *
     * @param key the option's key, e.g. {@code connectString}
     * @param value its value
     * @return a new configuration
     */
    public StoreConfig withOption(String key, String value) {
        Map<String, String> copy = new LinkedHashMap<>(options);
        copy.put(key, value);
        return new StoreConfig(name, type, timeout, copy, observer);
    }

    /**
     * This configuration with its option keys spelled as {@code known} spells them, where they
     * match ignoring case and dashes: {@code COSID_STORES_MAIN_OPTIONS_CONNECTSTRING} (an
     * environment variable, lowercased by binders) and {@code connect-string} both become {@code
     * connectString}. Keys that match none stay as written, for {@link #requireKnownOptions} to
     * name.
     *
     * @param known the backend's option keys ({@link StoreProvider#optionKeys()})
     * @return a new configuration, or this one when every key is spelled as known or known is empty
     * @throws IllegalArgumentException naming both keys, if two keys of this configuration match
     *     the same known key
     */
    public StoreConfig withOptionKeysAs(Set<String> known) {
        Map<String, String> byLoose = new LinkedHashMap<>();
        for (String k : known) {
            byLoose.put(loose(k), k);
        }
        Map<String, String> spelled = new LinkedHashMap<>();
        Map<String, String> from = new LinkedHashMap<>();
        boolean changed = false;
        for (Map.Entry<String, String> e : options.entrySet()) {
            String key = byLoose.getOrDefault(loose(e.getKey()), e.getKey());
            String before = from.put(key, e.getKey());
            if (before != null) {
                throw new IllegalArgumentException(
                        optionPath(before)
                                + " and "
                                + optionPath(e.getKey())
                                + " both set the option "
                                + key
                                + "; keep one");
            }
            spelled.put(key, e.getValue());
            changed |= !key.equals(e.getKey());
        }
        return changed ? new StoreConfig(name, type, timeout, spelled, observer) : this;
    }

    private static String loose(String key) {
        return key.replace("-", "").toLowerCase(Locale.ROOT);
    }

    /**
     * Reads every store configured under {@code cosid.stores}.
     *
     * @param settings nested maps, flat dotted keys, or a mix; entries outside {@code cosid.stores}
     *     are ignored
     * @return the stores by name, in name order
     * @throws IllegalArgumentException naming the key, if a key under a store is unknown, a value
     *     is malformed, or a store has no type
     */
    public static Map<String, StoreConfig> parseAll(Map<String, ?> settings) {
        return SettingsReader.parseAll(settings);
    }

    /**
     * Reads every store configured under {@code cosid.stores} in properties.
     *
     * @param properties flat dotted keys such as {@code cosid.stores.zk.type}
     * @return the stores by name, in name order
     * @throws IllegalArgumentException naming the key, if a setting is unknown or malformed
     */
    public static Map<String, StoreConfig> parseAll(Properties properties) {
        Map<String, Object> map = new TreeMap<>();
        properties.stringPropertyNames().forEach(k -> map.put(k, properties.getProperty(k)));
        return parseAll(map);
    }

    /**
     * Reads one named store.
     *
     * @param name the store's name
     * @param settings nested maps, flat dotted keys, or a mix
     * @return the store's configuration
     * @throws IllegalArgumentException if the store is not configured (listing those that are) or
     *     its settings are malformed
     */
    public static StoreConfig parse(String name, Map<String, ?> settings) {
        Map<String, StoreConfig> all = parseAll(settings);
        StoreConfig config = all.get(name);
        if (config == null) {
            List<String> outside =
                    settings.keySet().stream()
                            .map(String::valueOf)
                            .filter(k -> !k.equals("cosid") && !k.startsWith("cosid."))
                            .sorted()
                            .toList();
            throw new IllegalArgumentException(
                    "no store named '"
                            + name
                            + "' under "
                            + PREFIX.substring(0, PREFIX.length() - 1)
                            + "; configured stores: "
                            + all.keySet()
                            + (outside.isEmpty()
                                    ? ""
                                    : ". The settings have "
                                            + outside
                                            + " outside cosid.stores: a store's settings go under"
                                            + " cosid.stores."
                                            + name
                                            + ", as nested maps {cosid={stores={"
                                            + name
                                            + "={type=zookeeper,"
                                            + " options={connectString=zk-1:2181}}}}} or flat keys"
                                            + " cosid.stores."
                                            + name
                                            + ".type"));
        }
        return config;
    }

    /**
     * Writes a duration the way settings are written: the largest unit that states it exactly
     * ({@code 5s}, {@code 1500ms}, {@code 2m}), so that messages read like the configuration. A
     * duration with a part below a millisecond, or a negative one, is written in ISO-8601.
     *
     * @param duration the duration
     * @return its text, which {@link #parseDuration} reads back as the same duration
     */
    public static String formatDuration(Duration duration) {
        if (duration.isNegative() || duration.toNanosPart() % 1_000_000 != 0) {
            return duration.toString();
        }
        long ms = duration.toMillis();
        if (ms == 0 || ms % 1000 != 0) {
            return ms + "ms";
        }
        long s = ms / 1000;
        if (s % 86_400 == 0) {
            return s / 86_400 + "d";
        }
        if (s % 3600 == 0) {
            return s / 3600 + "h";
        }
        return s % 60 == 0 ? s / 60 + "m" : s + "s";
    }

    /**
     * Parses a duration setting.
     *
     * @param key the setting's key, for the message
     * @param text {@code 100ms}, {@code 3s}, {@code 2m}, {@code 1h}, {@code 1d} or ISO-8601 such as
     *     {@code PT3S}
     * @return the duration
     * @throws IllegalArgumentException naming the key, if the text is not a duration
     */
    public static Duration parseDuration(String key, String text) {
        String trimmed = text == null ? "" : text.trim();
        Matcher m = SHORT_DURATION.matcher(trimmed);
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            return switch (m.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                default -> Duration.ofDays(n);
            };
        }
        if (trimmed.startsWith("P") || trimmed.startsWith("p")) {
            try {
                return Duration.parse(trimmed);
            } catch (DateTimeParseException e) {
                // fall through to the message below
            }
        }
        throw new IllegalArgumentException(
                key
                        + ": '"
                        + text
                        + "' is not a duration; write a whole number with a"
                        + " unit (100ms, 3s, 2m, 1h, 1d) or ISO-8601 (PT3S)");
    }

    /**
     * Checks that every option key is one the backend knows.
     *
     * @param known the keys the backend accepts
     * @throws IllegalArgumentException naming the first unknown key and listing the known ones
     */
    public void requireKnownOptions(Set<String> known) {
        for (String key : options.keySet()) {
            if (!known.contains(key)) {
                throw new IllegalArgumentException(
                        optionPath(key)
                                + " is not an option of store type '"
                                + type
                                + "'; known options: "
                                + new TreeSet<>(known));
            }
        }
    }

    /**
     * A text option.
     *
     * @param key the option's key
     * @param defaultValue the value when the option is absent (may be null)
     * @return the option's value or the default (null only when the default is)
     */
    public @Nullable String option(String key, @Nullable String defaultValue) {
        String value = options.get(key);
        return value == null ? defaultValue : value;
    }

    /**
     * A duration option.
     *
     * @param key the option's key
     * @param defaultValue the value when the option is absent
     * @return the option's value or the default
     * @throws IllegalArgumentException naming the key, if the value is not a positive duration
     */
    public Duration durationOption(String key, Duration defaultValue) {
        String text = options.get(key);
        if (text == null) {
            return defaultValue;
        }
        Duration d = parseDuration(optionPath(key), text);
        if (d.isZero() || d.isNegative()) {
            throw new IllegalArgumentException(
                    optionPath(key) + " must be more than 0, got '" + text + "'");
        }
        return d;
    }

    /**
     * A whole-number option.
     *
     * @param key the option's key
     * @param defaultValue the value when the option is absent
     * @param min the lowest value allowed
     * @param max the highest value allowed
     * @return the option's value or the default
     * @throws IllegalArgumentException naming the key, if the value is not a number in {@code
     *     min..max}
     */
    public int intOption(String key, int defaultValue, int min, int max) {
        String text = options.get(key);
        if (text == null) {
            return defaultValue;
        }
        try {
            int value = Integer.parseInt(text.trim());
            if (value >= min && value <= max) {
                return value;
            }
        } catch (NumberFormatException e) {
            // fall through to the message below
        }
        throw new IllegalArgumentException(
                optionPath(key)
                        + " must be a whole number from "
                        + min
                        + " to "
                        + max
                        + ", got '"
                        + text
                        + "'");
    }

    /**
     * A yes-or-no option, written {@code true} or {@code false} (in any case).
     *
     * @param key the option's key
     * @param defaultValue the value when the option is absent
     * @return the option's value or the default
     * @throws IllegalArgumentException naming the key, if the value is neither
     */
    public boolean booleanOption(String key, boolean defaultValue) {
        String word = choiceOption(key, Boolean.toString(defaultValue), List.of("true", "false"));
        return Boolean.parseBoolean(word);
    }

    /**
     * An option that is one of a few words, in any case.
     *
     * @param key the option's key
     * @param defaultValue the word when the option is absent (may be null)
     * @param choices the words allowed, in lower case
     * @return the word chosen, in lower case, or the default
     * @throws IllegalArgumentException naming the key and the words allowed, if the value is none
     *     of them
     */
    public @Nullable String choiceOption(
            String key, @Nullable String defaultValue, List<String> choices) {
        String text = options.get(key);
        if (text == null) {
            return defaultValue;
        }
        String word = text.trim().toLowerCase(Locale.ROOT);
        if (choices.contains(word)) {
            return word;
        }
        String allowed =
                choices.size() == 2
                        ? choices.get(0) + " or " + choices.get(1)
                        : "one of " + String.join(", ", choices);
        throw new IllegalArgumentException(
                optionPath(key) + " must be " + allowed + ", got '" + text + "'");
    }

    /**
     * The full setting path of an option, for messages.
     *
     * @param key the option's key
     * @return {@code cosid.stores.<name>.options.<key>}
     */
    public String optionPath(String key) {
        return PREFIX + name + ".options." + key;
    }
}
