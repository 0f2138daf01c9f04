package io.cosid.store.cli;

import java.io.PrintWriter;
import java.util.Map;
import picocli.CommandLine.Option;

/** {@code --json}: one JSON document for scripts instead of lines for people; mixed in. */
final class JsonOption {

    @Option(names = "--json", description = "One JSON document for scripts.")
    boolean json;

    /** Prints {@code body} as the command's document under {@code --json}, else {@code line}. */
    void print(PrintWriter out, String line, Map<String, ?> body) {
        out.println(json ? Json.document(body) : line);
    }
}
