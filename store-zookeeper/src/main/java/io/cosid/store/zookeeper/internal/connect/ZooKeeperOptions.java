package io.cosid.store.zookeeper.internal.connect;

import io.cosid.store.StoreArguments;
import io.cosid.store.StoreConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * The ZooKeeper options of a store with their defaults (docs/contract.md, "Configuration"). Parsed
 * once; an unknown key or a malformed value is an error naming the full key.
 */
public record ZooKeeperOptions(
        String connectString,
        Duration sessionTimeout,
        Duration connectionTimeout,
        Duration blockUntilConnectedWait,
        Duration retryBaseSleep,
        int retryMaxRetries,
        Duration retryMaxSleep,
        String root,
        @Nullable String authDigest,
        boolean creatorAcl,
        boolean fixParentAcls,
        Map<String, String> tls) {

    public static final String CONNECT_STRING = "connectString";
    static final String SESSION_TIMEOUT = "sessionTimeout";
    static final String CONNECTION_TIMEOUT = "connectionTimeout";
    static final String BLOCK_UNTIL_CONNECTED_WAIT = "blockUntilConnectedWait";
    static final String RETRY_BASE_SLEEP = "retry.baseSleepTime";
    static final String RETRY_MAX_RETRIES = "retry.maxRetries";
    static final String RETRY_MAX_SLEEP = "retry.maxSleep";
    static final String ROOT = "root";
    static final String AUTH_DIGEST = "auth.digest";
    static final String ACL = "acl";

    /** The backend's type name, as configuration and observer events spell it. */
    public static final String TYPE = "zookeeper";

    public static final String ACL_FIX_PARENTS = "acl.fixParents";
    static final String TLS_ENABLED = "tls.enabled";
    static final List<String> TLS_STORES =
            List.of(
                    "tls.keyStore.location",
                    "tls.keyStore.password",
                    "tls.keyStore.type",
                    "tls.trustStore.location",
                    "tls.trustStore.password",
                    "tls.trustStore.type");

    /** Options that only make sense when the store builds its own client. */
    public static final Set<String> CLIENT_OPTIONS =
            union(
                    Set.of(
                            CONNECT_STRING,
                            SESSION_TIMEOUT,
                            CONNECTION_TIMEOUT,
                            BLOCK_UNTIL_CONNECTED_WAIT,
                            AUTH_DIGEST,
                            TLS_ENABLED),
                    Set.copyOf(TLS_STORES));

    public static final Set<String> STORE_OPTIONS =
            Set.of(
                    RETRY_BASE_SLEEP,
                    RETRY_MAX_RETRIES,
                    RETRY_MAX_SLEEP,
                    ROOT,
                    ACL,
                    ACL_FIX_PARENTS);

    /** The text that stands for a secret in a log line or a message. */
    static final String MASKED = "****";

    /**
     * The effective options as one line for the store's log, secrets masked: the client's own only
     * when the store built its client ({@code ownClient}).
     */
    public String describe(boolean ownClient) {
        Map<String, String> shown = new LinkedHashMap<>();
        if (ownClient) {
            shown.put(CONNECT_STRING, connectString);
            shown.put(SESSION_TIMEOUT, StoreConfig.formatDuration(sessionTimeout));
            shown.put(CONNECTION_TIMEOUT, StoreConfig.formatDuration(connectionTimeout));
            shown.put(
                    BLOCK_UNTIL_CONNECTED_WAIT,
                    StoreConfig.formatDuration(blockUntilConnectedWait));
            if (authDigest != null) {
                shown.put(AUTH_DIGEST, MASKED);
            }
            shown.put(TLS_ENABLED, Boolean.toString(!tls.isEmpty()));
            tls.forEach((k, v) -> shown.put(k, k.endsWith(".password") ? MASKED : v));
        } else {
            shown.put("client", "the application's CuratorFramework");
        }
        shown.put(RETRY_BASE_SLEEP, StoreConfig.formatDuration(retryBaseSleep));
        shown.put(RETRY_MAX_RETRIES, Integer.toString(retryMaxRetries));
        shown.put(RETRY_MAX_SLEEP, StoreConfig.formatDuration(retryMaxSleep));
        shown.put(ROOT, root);
        shown.put(ACL, creatorAcl ? "creator" : "open");
        shown.put(ACL_FIX_PARENTS, Boolean.toString(fixParentAcls));
        StringBuilder line = new StringBuilder();
        shown.forEach(
                (k, v) ->
                        line.append(line.length() == 0 ? "" : ", ")
                                .append(k)
                                .append('=')
                                .append(v));
        return line.toString();
    }

    /** Never the secrets: {@link #describe} as if the store built its client. */
    @Override
    public String toString() {
        return "ZooKeeperOptions[" + describe(true) + "]";
    }

    public static ZooKeeperOptions parse(StoreConfig config, boolean ownClient) {
        if (ownClient) {
            config.requireKnownOptions(union(CLIENT_OPTIONS, STORE_OPTIONS));
        } else {
            for (String key : config.options().keySet()) {
                if (CLIENT_OPTIONS.contains(key)) {
                    throw new IllegalArgumentException(
                            config.optionPath(key)
                                    + " cannot be used with a CuratorFramework passed by the"
                                    + " caller: that client's own settings apply; only "
                                    + STORE_OPTIONS
                                    + " are read");
                }
            }
            config.requireKnownOptions(STORE_OPTIONS);
        }
        String connectString = option(config, CONNECT_STRING, "localhost:2181").trim();
        if (connectString.isEmpty()) {
            throw new IllegalArgumentException(
                    config.optionPath(CONNECT_STRING)
                            + " must not be empty; write host:port[,host:port...][/chroot]");
        }
        String malformed = malformed(connectString);
        if (malformed != null) {
            throw new IllegalArgumentException(
                    config.optionPath(CONNECT_STRING)
                            + " '"
                            + connectString
                            + "' is not host:port[,host:port...][/chroot]: "
                            + malformed);
        }
        return new ZooKeeperOptions(
                connectString,
                config.durationOption(SESSION_TIMEOUT, Duration.ofSeconds(60)),
                config.durationOption(CONNECTION_TIMEOUT, Duration.ofSeconds(15)),
                config.durationOption(BLOCK_UNTIL_CONNECTED_WAIT, Duration.ofSeconds(10)),
                config.durationOption(RETRY_BASE_SLEEP, Duration.ofMillis(100)),
                config.intOption(RETRY_MAX_RETRIES, 5, 0, 29),
                config.durationOption(RETRY_MAX_SLEEP, Duration.ofMillis(500)),
                root(config),
                authDigest(config),
                creatorAcl(config, ownClient),
                config.booleanOption(ACL_FIX_PARENTS, false),
                tls(config));
    }

    /**
     * What is wrong with a connect string, or null: checked before any connection attempt, since
     * ZooKeeper's client would otherwise keep retrying a host it cannot parse or resolve.
     */
    static @Nullable String malformed(String connectString) {
        int slash = connectString.indexOf('/');
        String hosts = slash < 0 ? connectString : connectString.substring(0, slash);
        if (slash >= 0) {
            String chroot = connectString.substring(slash);
            if (chroot.length() > 1
                    && (chroot.endsWith("/")
                            || chroot.contains("//")
                            || chroot.contains("/./")
                            || chroot.contains("/../")
                            || chroot.endsWith("/.")
                            || chroot.endsWith("/.."))) {
                return "the chroot '" + chroot + "' is not a path like /app";
            }
        }
        if (hosts.isBlank()) {
            return "no server before the chroot";
        }
        for (String server : hosts.split(",", -1)) {
            String s = server.trim();
            if (s.isEmpty()) {
                return "an empty server between commas";
            }
            String host = s;
            String port = null;
            if (s.startsWith("[")) {
                int close = s.indexOf(']');
                if (close < 0) {
                    return "'" + s + "' opens an IPv6 address with [ but does not close it";
                }
                host = s.substring(1, close);
                if (close + 1 < s.length()) {
                    if (s.charAt(close + 1) != ':') {
                        return "'" + s + "': write [address]:port";
                    }
                    port = s.substring(close + 2);
                }
            } else {
                int colon = s.lastIndexOf(':');
                if (colon >= 0) {
                    host = s.substring(0, colon);
                    port = s.substring(colon + 1);
                }
            }
            if (host.isEmpty() || host.chars().anyMatch(c -> Character.isWhitespace(c))) {
                return "'" + s + "' has no valid host";
            }
            if (port != null && !validPort(port)) {
                return "'" + s + "' has port '" + port + "'; a port is a number from 1 to 65535";
            }
        }
        return null;
    }

    /** An option with a default: never null. */
    private static String option(StoreConfig config, String key, String defaultValue) {
        return Objects.requireNonNull(config.option(key, defaultValue));
    }

    private static boolean validPort(String port) {
        if (port.isEmpty() || port.length() > 5 || !port.chars().allMatch(Character::isDigit)) {
            return false;
        }
        int p = Integer.parseInt(port);
        return p >= 1 && p <= 65535;
    }

    /** {@code user:password} for ZooKeeper's digest scheme, or null. */
    private static @Nullable String authDigest(StoreConfig config) {
        String digest = config.option(AUTH_DIGEST, null);
        if (digest != null) {
            int colon = digest.indexOf(':');
            if (colon <= 0 || colon == digest.length() - 1) {
                throw new IllegalArgumentException(
                        config.optionPath(AUTH_DIGEST)
                                + " must be user:password with both parts non-empty");
            }
        }
        return digest;
    }

    /**
     * The ACL of every node the store creates: {@code creator} (only the identity that created it
     * may read or write it), or {@code open} (anyone). The default is creator when credentials are
     * configured, open otherwise. With a caller's client, creator relies on the client's own
     * authentication.
     */
    private static boolean creatorAcl(StoreConfig config, boolean ownClient) {
        boolean credentials = config.option(AUTH_DIGEST, null) != null;
        boolean creator =
                "creator"
                        .equals(
                                config.choiceOption(
                                        ACL,
                                        credentials ? "creator" : "open",
                                        List.of("open", "creator")));
        if (creator && ownClient && !credentials) {
            throw new IllegalArgumentException(
                    config.optionPath(ACL)
                            + " = creator needs credentials: set "
                            + config.optionPath(AUTH_DIGEST)
                            + " to user:password");
        }
        return creator;
    }

    /** The chroot of the connect string ({@code host:port/app} has {@code /app}), or null. */
    public @Nullable String chroot() {
        int slash = connectString.indexOf('/');
        return slash < 0 || slash == connectString.length() - 1
                ? null
                : connectString.substring(slash);
    }

    /** TLS settings by option key; empty when TLS is off. */
    private static Map<String, String> tls(StoreConfig config) {
        boolean enabled = config.booleanOption(TLS_ENABLED, false);
        Map<String, String> tls = new TreeMap<>();
        for (String key : TLS_STORES) {
            String value = config.option(key, null);
            if (value != null) {
                tls.put(key, value);
            }
        }
        if (!enabled) {
            if (!tls.isEmpty()) {
                throw new IllegalArgumentException(
                        config.optionPath(TLS_ENABLED)
                                + " must be true when "
                                + tls.keySet()
                                + " are set");
            }
            return Map.of();
        }
        for (String required : List.of("tls.trustStore.location")) {
            if (!tls.containsKey(required)) {
                throw new IllegalArgumentException(
                        config.optionPath(required)
                                + " is required with "
                                + config.optionPath(TLS_ENABLED)
                                + " = true");
            }
        }
        for (String key : List.of("tls.keyStore.location", "tls.trustStore.location")) {
            if (tls.containsKey(key) && !Files.isReadable(Path.of(tls.get(key)))) {
                throw new IllegalArgumentException(
                        config.optionPath(key) + " '" + tls.get(key) + "' is not a readable file");
            }
        }
        TlsStores.load(
                tls,
                config::optionPath); // a wrong password or a key store without a key fails here
        return Collections.unmodifiableMap(tls);
    }

    private static String root(StoreConfig config) {
        String root = option(config, ROOT, "/cosid");
        if (!root.startsWith("/") || root.length() < 2 || root.endsWith("/")) {
            throw new IllegalArgumentException(
                    config.optionPath(ROOT)
                            + " '"
                            + root
                            + "' is invalid: write an absolute ZooKeeper path such as /cosid (not /"
                            + " itself, no trailing /)");
        }
        try {
            StoreArguments.requireKey(root.substring(1));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(config.optionPath(ROOT) + ": " + e.getMessage(), e);
        }
        if (root.equals("/zookeeper") || root.startsWith("/zookeeper/")) {
            throw new IllegalArgumentException(
                    config.optionPath(ROOT)
                            + " '"
                            + root
                            + "' is inside ZooKeeper's reserved /zookeeper tree");
        }
        return root;
    }

    /** The sleep before connection retry {@code attempt} (0-based): exponential, capped. */
    public Duration retrySleep(int attempt) {
        long millis = retryBaseSleep.toMillis() << Math.min(attempt, 20);
        return Duration.ofMillis(Math.min(millis, retryMaxSleep.toMillis()));
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        HashSet<String> all = new HashSet<>(a);
        all.addAll(b);
        return all;
    }
}
