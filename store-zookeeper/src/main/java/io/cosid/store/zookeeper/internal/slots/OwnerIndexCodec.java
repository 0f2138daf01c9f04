package io.cosid.store.zookeeper.internal.slots;

import static io.cosid.store.StoreArguments.printable;

import io.cosid.store.spi.NamespaceRules;
import io.cosid.store.zookeeper.internal.wire.NodePaths;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * An owner index node's data: {@code slots=} the slots this owner key held last, most recent first,
 * and a {@code nonce=} that makes every write's data unique (see {@link NodePaths#wrapClaim}).
 */
final class OwnerIndexCodec {

    /** How many recently owned slots the index keeps. */
    static final int SIZE = NamespaceRules.OWNER_INDEX_SIZE;

    private static final List<String> FIELDS = List.of("slots", "nonce");

    private OwnerIndexCodec() {}

    static byte[] encode(List<Integer> slots, String nonce) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("slots", slots.stream().map(String::valueOf).collect(Collectors.joining(",")));
        v.put("nonce", nonce);
        return NodeText.encode(v).getBytes(StandardCharsets.UTF_8);
    }

    static List<Integer> decode(String location, byte[] data) {
        NodeText lines = NodeText.decode(location, data, FIELDS);
        String text = lines.text("slots");
        List<Integer> slots = new ArrayList<>();
        if (!text.isEmpty()) {
            for (String part : text.split(",", -1)) {
                try {
                    int slot = Integer.parseInt(part);
                    if (slot < 0 || !part.equals(Integer.toString(slot)) || slots.contains(slot)) {
                        throw new NumberFormatException(part);
                    }
                    slots.add(slot);
                } catch (NumberFormatException e) {
                    throw lines.corrupt(
                            "field 'slots' = '"
                                    + printable(text)
                                    + "' is not a list of distinct slot numbers");
                }
            }
        }
        if (slots.size() > SIZE) {
            throw lines.corrupt(
                    "field 'slots' lists "
                            + slots.size()
                            + " slots; at most "
                            + SIZE
                            + " are kept");
        }
        return List.copyOf(slots);
    }
}
