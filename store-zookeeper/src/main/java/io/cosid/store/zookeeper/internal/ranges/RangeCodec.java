package io.cosid.store.zookeeper.internal.ranges;

import static io.cosid.store.StoreArguments.printable;

import io.cosid.store.RangeState;
import io.cosid.store.StoreCorruptedException;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * A range node's data: {@code next} as decimal text, {@code :sealed} appended once sealed. A node
 * with empty data that was never written (version 0) is a parent created for a longer key: the key
 * itself is unused.
 */
final class RangeCodec {

    private static final Pattern FORMAT = Pattern.compile("(0|[1-9][0-9]{0,18})(:sealed)?");
    private static final String SEALED = ":sealed";

    private RangeCodec() {}

    static byte[] encode(RangeState state) {
        return (state.next() + (state.sealed() ? SEALED : "")).getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * The state in the data, or null for an unused parent node.
     *
     * @throws StoreCorruptedException if the data is anything else
     */
    static @Nullable RangeState decode(String key, String path, byte[] data, int version) {
        String location = "range key '" + key + "' (" + path + ")";
        if (data == null || data.length == 0) {
            if (version == 0) {
                return null;
            }
            throw new StoreCorruptedException(
                    location,
                    "the data is empty although the node was written " + version + " times");
        }
        String text = new String(data, StandardCharsets.UTF_8);
        Matcher m = FORMAT.matcher(text);
        if (!m.matches()) {
            throw new StoreCorruptedException(
                    location,
                    "'"
                            + printable(text)
                            + "' is not a decimal next value with an optional :sealed suffix");
        }
        try {
            return new RangeState(Long.parseLong(m.group(1)), m.group(2) != null);
        } catch (NumberFormatException e) {
            throw new StoreCorruptedException(
                    location, "'" + printable(text) + "' is beyond " + Long.MAX_VALUE);
        }
    }
}
