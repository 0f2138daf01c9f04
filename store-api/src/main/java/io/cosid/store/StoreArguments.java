package io.cosid.store;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.jspecify.annotations.Nullable;

/**
 * The one validation of arguments that every backend uses, so that a key or namespace valid on one
 * backend is valid on all of them. Each check throws an {@link IllegalArgumentException} that names
 * the argument, the value and the rule, before anything is read or written.
 *
 * <p>Names are ZooKeeper-safe on every backend: a range key is a relative path of segments
 * separated by {@code /}; a namespace and an owner key are one segment. A segment is 1 to {@value
 * #MAX_SEGMENT_LENGTH} characters, is not {@code .} or {@code ..}, and has no control characters
 * and none of the characters ZooKeeper refuses ({@code U+D800..U+F8FF}, {@code U+FFF0..U+FFFF}).
 */
public final class StoreArguments {

    /** The longest range key, in characters. */
    public static final int MAX_KEY_LENGTH = 1024;

    /** The longest segment of a name, in characters. */
    public static final int MAX_SEGMENT_LENGTH = 255;

    /** The largest number of slots a namespace may have. */
    public static final int MAX_LIMIT = 65_536;

    /** The longest lease ttl. */
    public static final Duration MAX_TTL = Duration.ofDays(1);

    /** The latest instant a store keeps: the largest number of milliseconds since the epoch. */
    public static final Instant MAX_INSTANT = Instant.ofEpochMilli(Long.MAX_VALUE);

    /** The largest clock-skew tolerance of a namespace. */
    public static final Duration MAX_TOLERANCE = Duration.ofHours(1);

    private static final String SEGMENT_RULE =
            "segments of 1-"
                    + MAX_SEGMENT_LENGTH
                    + " characters, none of them '.' or '..', without '/' inside a segment, control"
                    + " characters or characters U+D800-U+F8FF and U+FFF0-U+FFFF";

    private StoreArguments() {}

    /**
     * Checks a range key.
     *
     * @param key the key
     * @return the key, unchanged
     * @throws IllegalArgumentException if the key is null or breaks the rule
     */
    public static String requireKey(String key) {
        if (key == null) {
            throw new IllegalArgumentException("key must not be null");
        }
        if (key.isEmpty() || key.length() > MAX_KEY_LENGTH) {
            throw invalidKey(key, "it has " + key.length() + " characters");
        }
        String[] segments = key.split("/", -1);
        for (int i = 0; i < segments.length; i++) {
            String problem = segmentProblem(segments[i]);
            if (problem != null) {
                throw invalidKey(key, "segment " + (i + 1) + " " + problem);
            }
        }
        return key;
    }

    /**
     * Checks a namespace's name.
     *
     * @param namespace the name
     * @return the name, unchanged
     * @throws IllegalArgumentException if the name is null or breaks the rule
     */
    public static String requireNamespace(String namespace) {
        return requireSegment("namespace", namespace);
    }

    /**
     * Checks an owner key.
     *
     * @param ownerKey the owner key
     * @return the owner key, unchanged
     * @throws IllegalArgumentException if the owner key is null or breaks the rule
     */
    public static String requireOwnerKey(String ownerKey) {
        return requireSegment("ownerKey", ownerKey);
    }

    /**
     * Checks a range size.
     *
     * @param size the number of values asked for
     * @return the size
     * @throws IllegalArgumentException if {@code size < 1}
     */
    public static long requireSize(long size) {
        if (size < 1) {
            throw new IllegalArgumentException("size must be at least 1, got " + size);
        }
        return size;
    }

    /**
     * Checks a value a counter is advanced to.
     *
     * @param atLeast the value
     * @return the value
     * @throws IllegalArgumentException if {@code atLeast < 0}
     */
    public static long requireAtLeast(long atLeast) {
        if (atLeast < 0) {
            throw new IllegalArgumentException("atLeast must be at least 0, got " + atLeast);
        }
        return atLeast;
    }

    /**
     * Checks a lease ttl.
     *
     * @param ttl the ttl
     * @return the ttl
     * @throws IllegalArgumentException if it is null, not whole milliseconds, or outside {@code
     *     1ms..MAX_TTL}
     */
    public static Duration requireTtl(Duration ttl) {
        return requireMillis("ttl", ttl, Duration.ofMillis(1), MAX_TTL);
    }

    /**
     * Checks a namespace's clock-skew tolerance.
     *
     * @param tolerance the tolerance
     * @return the tolerance
     * @throws IllegalArgumentException if it is null, not whole milliseconds, or outside {@code
     *     0..MAX_TOLERANCE}
     */
    public static Duration requireTolerance(Duration tolerance) {
        return requireMillis("tolerance", tolerance, Duration.ZERO, MAX_TOLERANCE);
    }

    /**
     * Checks a namespace's number of slots.
     *
     * @param limit the number of slots
     * @return the limit
     * @throws IllegalArgumentException if it is outside {@code 1..MAX_LIMIT}
     */
    public static int requireLimit(int limit) {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException(
                    "limit must be between 1 and " + MAX_LIMIT + ", got " + limit);
        }
        return limit;
    }

    /**
     * Checks that a slot belongs to a namespace.
     *
     * @param slot the slot number
     * @param namespace the namespace
     * @return the slot
     * @throws IllegalArgumentException if {@code slot} is outside {@code 0..limit-1}
     */
    public static int requireSlot(int slot, Namespace namespace) {
        if (!namespace.contains(slot)) {
            throw new IllegalArgumentException(
                    "slot "
                            + slot
                            + " is outside namespace '"
                            + namespace.name()
                            + "', whose slots are 0.."
                            + (namespace.limit() - 1));
        }
        return slot;
    }

    /**
     * Checks a fence that a slot is advanced to.
     *
     * @param fence the fence
     * @return the fence
     * @throws IllegalArgumentException if {@code fence < 0}
     */
    public static long requireFence(long fence) {
        if (fence < 0) {
            throw new IllegalArgumentException("fenceAtLeast must be at least 0, got " + fence);
        }
        return fence;
    }

    /**
     * Checks an instant argument.
     *
     * @param name the argument's name
     * @param value the instant
     * @return the instant
     * @throws IllegalArgumentException if it is null, not whole milliseconds, or outside {@code
     *     EPOCH..MAX_INSTANT}
     */
    public static Instant requireInstant(String name, Instant value) {
        if (value == null) {
            throw new IllegalArgumentException(name + " must not be null");
        }
        if (!value.truncatedTo(ChronoUnit.MILLIS).equals(value)) {
            throw new IllegalArgumentException(name + " must be whole milliseconds, got " + value);
        }
        if (value.isBefore(Instant.EPOCH) || value.isAfter(MAX_INSTANT)) {
            throw new IllegalArgumentException(
                    name
                            + " must be between "
                            + Instant.EPOCH
                            + " and "
                            + MAX_INSTANT
                            + ", got "
                            + value);
        }
        return value;
    }

    /**
     * Checks a lease passed back to a store.
     *
     * @param lease the lease
     * @return the lease
     * @throws IllegalArgumentException if it is null
     */
    public static SlotLease requireLease(SlotLease lease) {
        if (lease == null) {
            throw new IllegalArgumentException("lease must not be null");
        }
        return lease;
    }

    private static String requireSegment(String name, String value) {
        if (value == null) {
            throw new IllegalArgumentException(name + " must not be null");
        }
        String problem = value.indexOf('/') >= 0 ? "contains '/'" : segmentProblem(value);
        if (problem != null) {
            throw new IllegalArgumentException(
                    name
                            + " '"
                            + printable(value)
                            + "' is invalid: it "
                            + problem
                            + "; each "
                            + name
                            + " is one segment: "
                            + SEGMENT_RULE);
        }
        return value;
    }

    /** The problem with one segment, or null when it is valid. */
    private static @Nullable String segmentProblem(String segment) {
        if (segment.isEmpty()) {
            return "is empty";
        }
        if (segment.length() > MAX_SEGMENT_LENGTH) {
            return "has " + segment.length() + " characters";
        }
        if (segment.equals(".") || segment.equals("..")) {
            return "is '" + segment + "'";
        }
        for (int i = 0; i < segment.length(); i++) {
            char c = segment.charAt(i);
            if (Character.isISOControl(c) || (c >= '\ud800' && c <= '\uf8ff') || c >= '\ufff0') {
                return "has the character U+" + String.format("%04X", (int) c) + " at index " + i;
            }
        }
        return null;
    }

    private static IllegalArgumentException invalidKey(String key, String problem) {
        return new IllegalArgumentException(
                "key '"
                        + printable(key)
                        + "' is invalid: "
                        + problem
                        + "; a key is 1-"
                        + MAX_KEY_LENGTH
                        + " characters: "
                        + SEGMENT_RULE
                        + ", separated by '/'");
    }

    private static Duration requireMillis(String name, Duration value, Duration min, Duration max) {
        if (value == null) {
            throw new IllegalArgumentException(name + " must not be null");
        }
        if (!value.truncatedTo(ChronoUnit.MILLIS).equals(value)) {
            throw new IllegalArgumentException(
                    name + " must be whole milliseconds, got " + StoreConfig.formatDuration(value));
        }
        if (value.compareTo(min) < 0 || value.compareTo(max) > 0) {
            throw new IllegalArgumentException(
                    name
                            + " must be between "
                            + StoreConfig.formatDuration(min)
                            + " and "
                            + StoreConfig.formatDuration(max)
                            + ", got "
                            + StoreConfig.formatDuration(value));
        }
        return value;
    }

    /**
     * A text for a message: at most 80 characters (then "..."), control characters shown as escapes
     * so that a message stays on one line. Every backend shows names and stored text it refuses
     * this way.
     *
     * @param value the text, as given or as stored
     * @return the text as a message shows it
     */
    public static String printable(String value) {
        StringBuilder out = new StringBuilder();
        String shown = value.length() > 80 ? value.substring(0, 80) + "..." : value;
        for (int i = 0; i < shown.length(); i++) {
            char c = shown.charAt(i);
            out.append(
                    Character.isISOControl(c)
                            ? String.format("\\u%04x", (int) c)
                            : String.valueOf(c));
        }
        return out.toString();
    }
}
