package io.cosid.store.zookeeper.internal;

/** Stored text as it may appear in a message: short, one line, control characters escaped. */
final class Printable {

    private Printable() {
    }

    static String of(String text) {
        String shown = text.length() > 120 ? text.substring(0, 120) + "..." : text;
        StringBuilder out = new StringBuilder();
        for (char c : shown.toCharArray()) {
            out.append(Character.isISOControl(c) ? String.format("\\u%04x", (int) c) : String.valueOf(c));
        }
        return out.toString();
    }
}
