package io.cosid.store.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Removing the directories the tool's embedded servers leave: their data, half an unpacking. */
final class Directories {

    private Directories() {}

    /**
     * Deletes {@code dir} and everything in it, best effort: what stays behind was named to the
     * user when it was made.
     */
    static void delete(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // best effort: a temporary directory left behind is reported nowhere else
        }
    }
}
