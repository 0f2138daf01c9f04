package io.cosid.store.zookeeper.internal.slots;

import io.cosid.store.Namespace;
import io.cosid.store.StoreArguments;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A namespace node's data: {@code limit=} and {@code tolerance=} (milliseconds) lines. */
final class NamespaceCodec {

    private static final List<String> FIELDS = List.of("limit", "tolerance");

    private NamespaceCodec() {}

    static byte[] encode(Namespace ns) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("limit", ns.limit());
        v.put("tolerance", ns.tolerance().toMillis());
        return NodeText.encode(v).getBytes(StandardCharsets.UTF_8);
    }

    static Namespace decode(String name, String path, byte[] data) {
        NodeText lines = NodeText.decode("namespace '" + name + "' (" + path + ")", data, FIELDS);
        int limit = (int) lines.number("limit", 1, StoreArguments.MAX_LIMIT);
        long tolerance = lines.number("tolerance", 0, StoreArguments.MAX_TOLERANCE.toMillis());
        return new Namespace(name, limit, Duration.ofMillis(tolerance));
    }
}
