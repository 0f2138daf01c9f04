package io.cosid.store.cli;

import io.cosid.store.Namespace;
import io.cosid.store.RangeState;
import io.cosid.store.SlotView;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/** How ranges, namespaces and slots read for people and for scripts. */
final class Views {

    private Views() {}

    /** held, expired, released or unused, at the store's now. */
    static String state(SlotView v, Instant now) {
        if (v.isHeldAt(now)) {
            return "held";
        }
        if (v.ownerKey().isEmpty()) {
            return "unused";
        }
        return v.released() ? "released" : "expired";
    }

    /** "expires in 2.1s" for a held slot, "free since 3.0s ago" for a free one. */
    static String timing(SlotView v, Instant now) {
        if (v.isHeldAt(now)) {
            return "expires " + Times.relative(v.expiresAt(), now);
        }
        return v.freeSince(now)
                .map(t -> "free since " + Times.relative(t, now))
                .orElse("never held");
    }

    static Map<String, Object> slot(SlotView v, Instant now) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("namespace", v.namespace());
        m.put("slot", v.slot());
        m.put("state", state(v, now));
        m.put("holder", v.holderAt(now).orElse(null));
        m.put("lastOwner", v.ownerKey().isEmpty() ? null : v.ownerKey());
        m.put("fence", v.fence());
        m.put("incarnation", v.incarnation());
        m.put("floor", v.floor());
        m.put("expiresAt", v.expiresAt());
        m.put("ceiling", v.ceiling());
        m.put("nextFloor", v.nextFloor());
        m.put("ttlMillis", v.ttl());
        m.put(
                "expiresInMillis",
                v.isHeldAt(now) ? Duration.between(now, v.expiresAt()).toMillis() : null);
        m.put("freeSince", v.freeSince(now).orElse(null));
        m.put("storeNow", now);
        return m;
    }

    static Map<String, Object> range(String key, RangeState state) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("key", key);
        m.put("next", state.next());
        m.put("sealed", state.sealed());
        return m;
    }

    static Map<String, Object> namespace(Namespace ns, long held) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", ns.name());
        m.put("limit", ns.limit());
        m.put("toleranceMillis", ns.tolerance());
        m.put("held", held);
        return m;
    }
}
