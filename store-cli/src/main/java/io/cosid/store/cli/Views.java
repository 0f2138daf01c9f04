package io.cosid.store.cli;

import io.cosid.store.Namespace;
import io.cosid.store.NamespaceSnapshot;
import io.cosid.store.RangeState;
import io.cosid.store.SlotView;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** How ranges, namespaces and slots read for people and for scripts. */
final class Views {

    private Views() {}

    /**
     * held, expired, released, advanced (never held, its fence or next floor raised by {@code
     * advance}) or unused, at the store's now.
     */
    static String state(SlotView v, Instant now) {
        if (v.isHeldAt(now)) {
            return "held";
        }
        if (v.ownerKey().isEmpty()) {
            return v.fence() > 0 || v.nextFloor().isAfter(Instant.EPOCH) ? "advanced" : "unused";
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
                .orElse(
                        v.fence() > 0 || v.nextFloor().isAfter(Instant.EPOCH)
                                ? "never held; its next window starts at " + v.nextFloor()
                                : "never held");
    }

    /** A slot for scripts; the same fields, in the same order, whether it was used or not. */
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
        m.put("ttlMillis", v.ttl().toMillis());
        m.put(
                "expiresInMillis",
                v.isHeldAt(now) ? Duration.between(now, v.expiresAt()).toMillis() : null);
        m.put("freeSince", v.freeSince(now).orElse(null));
        m.put("storeNow", now);
        return m;
    }

    /** A slot no holder ever wrote, with the fields of {@link #slot}. */
    static Map<String, Object> unusedSlot(String namespace, int slot, Instant now) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("namespace", namespace);
        m.put("slot", slot);
        m.put("state", "unused");
        for (String field :
                new String[] {
                    "holder",
                    "lastOwner",
                    "fence",
                    "incarnation",
                    "floor",
                    "expiresAt",
                    "ceiling",
                    "nextFloor",
                    "ttlMillis",
                    "expiresInMillis",
                    "freeSince"
                }) {
            m.put(field, null);
        }
        m.put("storeNow", now);
        return m;
    }

    /**
     * A range key for scripts; the same fields whether it was used or not (an unused key: {@code
     * used} false, next 0).
     */
    static Map<String, Object> range(String key, @Nullable RangeState state) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("key", key);
        m.put("used", state != null);
        m.put("next", state == null ? 0L : state.next());
        m.put("sealed", state != null && state.sealed());
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

    /** The slots of a namespace held now, one line each: "ns slot 3 held by 'a' (expires ...)". */
    static List<String> held(String ns, NamespaceSnapshot snapshot) {
        return snapshot.held().stream()
                .map(
                        v ->
                                ns
                                        + " slot "
                                        + v.slot()
                                        + " held by '"
                                        + v.ownerKey()
                                        + "' (expires "
                                        + Times.relative(v.expiresAt(), snapshot.now())
                                        + ")")
                .toList();
    }
}
