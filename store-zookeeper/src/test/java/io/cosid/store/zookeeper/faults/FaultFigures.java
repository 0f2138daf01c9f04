package io.cosid.store.zookeeper.faults;

import io.cosid.store.tck.HistoryChecker;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Prints a scenario's figures and appends them to target/fault-figures.txt for docs/reliability.md.
 */
final class FaultFigures {

    private FaultFigures() {}

    static String report(
            String scenario,
            long operations,
            long faults,
            long errors,
            HistoryChecker.Report history) {
        String line =
                String.format(
                        "%-28s %s operations=%d faults=%d failedOperations=%d %s",
                        scenario,
                        Soak.ON ? "soak " : "short",
                        operations,
                        faults,
                        errors,
                        history.summary());
        System.out.println(line);
        try {
            Path file = Path.of("target", "fault-figures.txt");
            Files.createDirectories(file.getParent());
            Files.writeString(
                    file, line + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return line;
    }
}
