package io.cosid.store.benchmarks;

import io.cosid.store.tck.net.DelayingProxy;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The JDBC benchmarks' arguments, {@code --name value} pairs: {@code --jdbc-url URL} (required, a
 * PostgreSQL database), {@code --delay-us D} (default 0: every contender reaches the server through
 * a {@link DelayingProxy} adding D µs each way, a network's round trip instead of loopback's), and
 * each benchmark's own.
 */
final class JdbcBenchArgs {

    private static final Pattern HOST_PORT = Pattern.compile("//([^/:?]+):(\\d+)");

    private final Map<String, String> options = new LinkedHashMap<>();
    private final String url;
    private final long delayMicros;

    JdbcBenchArgs(String[] args) {
        for (int i = 0; i + 1 < args.length; i += 2) {
            options.put(args[i], args[i + 1]);
        }
        String given = options.get("--jdbc-url");
        if (given == null) {
            throw new IllegalArgumentException("--jdbc-url is required (a PostgreSQL database)");
        }
        this.url = given;
        this.delayMicros = Long.parseLong(get("--delay-us", "0"));
    }

    String url() {
        return url;
    }

    String get(String name, String otherwise) {
        return options.getOrDefault(name, otherwise);
    }

    /** The proxy the contenders go through, started now; null without {@code --delay-us}. */
    @Nullable DelayingProxy proxy() {
        if (delayMicros <= 0) {
            return null;
        }
        Matcher m = HOST_PORT.matcher(url);
        if (!m.find()) {
            throw new IllegalArgumentException("no //host:port in " + url);
        }
        return new DelayingProxy(
                Integer.parseInt(m.group(2)), Duration.ofNanos(delayMicros * 1000));
    }

    /** The URL the contenders use: through {@code proxy} when there is one. */
    String via(@Nullable DelayingProxy proxy) {
        if (proxy == null) {
            System.out.println("loopback, no delay");
            return url;
        }
        System.out.println("through a proxy adding " + delayMicros + " µs each way");
        return HOST_PORT.matcher(url).replaceFirst("//" + proxy.connectString());
    }
}
