package io.cosid.store.jdbc;

import io.cosid.store.Namespace;
import io.cosid.store.StoreArguments;
import io.cosid.store.StoreCorruptedException;
import io.cosid.store.spi.NamespaceRules;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Namespace rows and owner-index rows read back, checked: a row written by hand that breaks a rule
 * is reported with where it is, never used.
 */
final class NamespaceRows {

    private static final Pattern COMMA = Pattern.compile(",");

    private NamespaceRows() {}

    /**
     * The namespace a row holds.
     *
     * @throws StoreCorruptedException if its limit or tolerance is out of range
     */
    static Namespace namespace(String where, String name, long limit, long toleranceMillis) {
        if (limit < 1 || limit > StoreArguments.MAX_LIMIT) {
            throw new StoreCorruptedException(
                    where, "slot_limit " + limit + " is outside 1.." + StoreArguments.MAX_LIMIT);
        }
        if (toleranceMillis < 0 || toleranceMillis > StoreArguments.MAX_TOLERANCE.toMillis()) {
            throw new StoreCorruptedException(
                    where,
                    "tolerance_ms "
                            + toleranceMillis
                            + " is outside 0.."
                            + StoreArguments.MAX_TOLERANCE.toMillis());
        }
        return new Namespace(name, (int) limit, Duration.ofMillis(toleranceMillis));
    }

    /**
     * The slots an owner index lists, most recent first: comma-separated slot numbers.
     *
     * @throws StoreCorruptedException if it is not such a list
     */
    static List<Integer> ownerIndex(String where, String text) {
        List<Integer> slots = new ArrayList<>();
        for (String part : COMMA.split(text, -1)) {
            int slot;
            try {
                slot = Integer.parseInt(part);
            } catch (NumberFormatException e) {
                throw corruptIndex(where, text);
            }
            if (slot < 0 || slots.contains(slot)) {
                throw corruptIndex(where, text);
            }
            slots.add(slot);
        }
        if (slots.size() > NamespaceRules.OWNER_INDEX_SIZE) {
            throw corruptIndex(where, text);
        }
        return List.copyOf(slots);
    }

    /** An owner index as stored. */
    static String ownerIndex(List<Integer> slots) {
        StringBuilder text = new StringBuilder();
        for (int slot : slots) {
            if (text.length() > 0) {
                text.append(',');
            }
            text.append(slot);
        }
        return text.toString();
    }

    private static StoreCorruptedException corruptIndex(String where, String text) {
        return new StoreCorruptedException(
                where,
                "'"
                        + text
                        + "' is not a list of at most "
                        + NamespaceRules.OWNER_INDEX_SIZE
                        + " distinct slot numbers separated by commas");
    }
}
