package io.cosid.store.zookeeper.internal.slots;

import static io.cosid.store.StoreArguments.printable;

import io.cosid.store.StoreCorruptedException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code name=value} lines of slot, namespace and owner-index nodes: exactly the expected
 * names, each once, in any order. Anything else is corrupt data, reported with where it was found.
 */
final class NodeText {

    private final String location;
    private final Map<String, String> values;

    private NodeText(String location, Map<String, String> values) {
        this.location = location;
        this.values = values;
    }

    static String encode(Map<String, ?> values) {
        StringBuilder out = new StringBuilder();
        values.forEach((k, v) -> out.append(k).append('=').append(v).append('\n'));
        return out.toString();
    }

    static NodeText decode(String location, byte[] data, List<String> names) {
        String text;
        try {
            text =
                    StandardCharsets.UTF_8
                            .newDecoder()
                            .onMalformedInput(CodingErrorAction.REPORT)
                            .onUnmappableCharacter(CodingErrorAction.REPORT)
                            .decode(ByteBuffer.wrap(data == null ? new byte[0] : data))
                            .toString();
        } catch (CharacterCodingException e) {
            throw new StoreCorruptedException(location, "the data is not UTF-8 text");
        }
        Map<String, String> values = new LinkedHashMap<>();
        for (String line : text.split("\n", -1)) {
            if (line.isEmpty()) {
                continue;
            }
            int eq = line.indexOf('=');
            if (eq <= 0) {
                throw new StoreCorruptedException(
                        location, "line '" + printable(line) + "' is not name=value");
            }
            String name = line.substring(0, eq);
            if (!names.contains(name)) {
                throw new StoreCorruptedException(
                        location, "unknown field '" + printable(name) + "'; expected " + names);
            }
            if (values.put(name, line.substring(eq + 1)) != null) {
                throw new StoreCorruptedException(location, "field '" + name + "' appears twice");
            }
        }
        for (String name : names) {
            if (!values.containsKey(name)) {
                throw new StoreCorruptedException(location, "field '" + name + "' is missing");
            }
        }
        return new NodeText(location, values);
    }

    String text(String name) {
        String value = values.get(name);
        if (value == null) {
            throw new StoreCorruptedException(location, "field '" + name + "' is missing");
        }
        return value;
    }

    long number(String name, long min, long max) {
        String v = text(name);
        try {
            long n = Long.parseLong(v);
            if (n >= min && n <= max && v.equals(Long.toString(n))) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new StoreCorruptedException(
                location,
                "field '"
                        + name
                        + "' = '"
                        + printable(v)
                        + "' is not a whole number from "
                        + min
                        + " to "
                        + max);
    }

    StoreCorruptedException corrupt(String problem) {
        return new StoreCorruptedException(location, problem);
    }
}
