package io.cosid.store.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** One results table, printed as aligned text and written as Markdown. */
final class Table {

    private final String title;
    private final List<String> header;
    private final List<List<String>> rows = new ArrayList<>();

    Table(String title, String... header) {
        this.title = title;
        this.header = List.of(header);
    }

    void row(Object... cells) {
        if (cells.length != header.size()) {
            throw new IllegalArgumentException(
                    "a row of " + title + " needs " + header.size() + " cells");
        }
        List<String> row = new ArrayList<>();
        for (Object c : cells) {
            row.add(format(c));
        }
        rows.add(row);
    }

    static String format(Object cell) {
        if (cell instanceof Double d) {
            if (d.isNaN()) {
                return "-";
            }
            return Math.abs(d) >= 100
                    ? String.format(Locale.ROOT, "%,.0f", d)
                    : String.format(Locale.ROOT, "%.2f", d);
        }
        return String.valueOf(cell);
    }

    String text() {
        int[] widths = new int[header.size()];
        for (int i = 0; i < widths.length; i++) {
            widths[i] = header.get(i).length();
            for (List<String> r : rows) {
                widths[i] = Math.max(widths[i], r.get(i).length());
            }
        }
        StringBuilder out = new StringBuilder(title).append('\n');
        appendLine(out, header, widths);
        for (List<String> r : rows) {
            appendLine(out, r, widths);
        }
        return out.toString();
    }

    private static void appendLine(StringBuilder out, List<String> cells, int[] widths) {
        for (int i = 0; i < cells.size(); i++) {
            String c = cells.get(i);
            out.append(
                    i == 0
                            ? String.format("  %-" + widths[i] + "s", c)
                            : String.format("  %" + widths[i] + "s", c));
        }
        out.append('\n');
    }

    String markdown() {
        StringBuilder out =
                new StringBuilder("#### ")
                        .append(title)
                        .append("\n\n| ")
                        .append(String.join(" | ", header))
                        .append(" |\n|");
        header.forEach(h -> out.append("---|"));
        out.append('\n');
        for (List<String> r : rows) {
            out.append("| ").append(String.join(" | ", r)).append(" |\n");
        }
        return out.append('\n').toString();
    }
}
