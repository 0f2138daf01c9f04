package io.cosid.store.tck;

import io.cosid.store.StoreArguments;
import java.time.Duration;
import java.util.List;

/**
 * The tables of bad input every backend must refuse with an {@link IllegalArgumentException} and
 * without writing anything. Public so that backends' own tests can reuse them.
 */
public final class InvalidArguments {

    private InvalidArguments() {}

    /**
     * Range keys that break the key rule.
     *
     * @return the keys
     */
    public static List<String> keys() {
        return List.of(
                "",
                "/",
                "/orders",
                "orders/",
                "orders//2024",
                ".",
                "..",
                "orders/./x",
                "orders/../x",
                "tab\there",
                "new\nline",
                "nul\u0000",
                "del\u007f",
                "c1\u0085",
                "sur\ud800x",
                "pua\ue000",
                "spec\ufff0",
                "x".repeat(StoreArguments.MAX_KEY_LENGTH + 1),
                "a/" + "y".repeat(StoreArguments.MAX_SEGMENT_LENGTH + 1));
    }

    /**
     * Keys that are unusual but valid, and must work.
     *
     * @return the keys
     */
    public static List<String> unusualValidKeys() {
        return List.of(
                "a",
                "orders/2024/eu-west",
                "...",
                ".hidden",
                "with space",
                "ключ/键/キー",
                "a=b:c",
                "x".repeat(StoreArguments.MAX_SEGMENT_LENGTH),
                ("k".repeat(99) + "/").repeat(10) + "k".repeat(23));
    }

    /**
     * Namespace names or owner keys (one segment) that break the segment rule.
     *
     * @return the names
     */
    public static List<String> segments() {
        return List.of(
                "",
                "a/b",
                "/",
                ".",
                "..",
                "tab\t",
                "line\n",
                "nul\u0000",
                "sur\udc00",
                "pua\uf000",
                "z".repeat(StoreArguments.MAX_SEGMENT_LENGTH + 1));
    }

    /**
     * Range sizes below 1.
     *
     * @return the sizes
     */
    public static List<Long> sizes() {
        return List.of(0L, -1L, Long.MIN_VALUE);
    }

    /**
     * Lease ttls outside {@code 1ms..MAX_TTL} or not whole milliseconds.
     *
     * @return the ttls
     */
    public static List<Duration> ttls() {
        return List.of(
                Duration.ZERO,
                Duration.ofMillis(-1),
                Duration.ofNanos(1),
                Duration.ofNanos(1_500_000),
                StoreArguments.MAX_TTL.plusMillis(1),
                Duration.ofDays(-3650));
    }

    /**
     * Tolerances outside {@code 0..MAX_TOLERANCE} or not whole milliseconds.
     *
     * @return the tolerances
     */
    public static List<Duration> tolerances() {
        return List.of(
                Duration.ofMillis(-1),
                Duration.ofNanos(10),
                StoreArguments.MAX_TOLERANCE.plusMillis(1));
    }

    /**
     * Namespace limits outside {@code 1..MAX_LIMIT}.
     *
     * @return the limits
     */
    public static List<Integer> limits() {
        return List.of(0, -1, Integer.MIN_VALUE, StoreArguments.MAX_LIMIT + 1, Integer.MAX_VALUE);
    }
}
