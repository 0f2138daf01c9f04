package io.cosid.store.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/** The tool in a process of its own, as a user runs it: what it printed, its exit and its time. */
record ToolProcess(int code, String out, String err, Duration took) {

    /**
     * Runs the tool with {@code args} and no standard input, waiting at most two minutes.
     *
     * @throws AssertionError if it did not end within them
     */
    static ToolProcess run(String... args) throws IOException, InterruptedException {
        long started = System.nanoTime();
        return finish(start(args), started);
    }

    /** Starts the tool with {@code args} and no standard input. */
    static Process start(String... args) throws IOException {
        return start(List.of(), args);
    }

    /**
     * Starts the tool as a terminal does, with Ctrl-C (SIGINT) at its default action. A process
     * started in the background of a non-interactive shell ({@code mvn verify &}) ignores SIGINT,
     * its children inherit that, and a JVM that starts with SIGINT ignored never sees Ctrl-C; GNU
     * env resets it. Skipped, saying why, when SIGINT is ignored here and env cannot reset it.
     */
    static Process startAsFromATerminal(String... args) throws IOException, InterruptedException {
        boolean envResets =
                new ProcessBuilder("env", "--default-signal=INT", "true")
                                .redirectErrorStream(true)
                                .start()
                                .waitFor()
                        == 0;
        if (envResets) {
            return start(List.of("env", "--default-signal=INT"), args);
        }
        Assumptions.assumeFalse(
                sigintIgnored(),
                "SIGINT is ignored in this JVM (started in the background?) and env"
                    + " --default-signal is missing: the tool would inherit the ignored signal");
        return start(args);
    }

    /** Whether this process ignores SIGINT (Linux: bit 2 of SigIgn in /proc/self/status). */
    private static boolean sigintIgnored() throws IOException {
        Path status = Path.of("/proc/self/status");
        if (!Files.isReadable(status)) {
            return false;
        }
        for (String line : Files.readAllLines(status)) {
            if (line.startsWith("SigIgn:")) {
                return (Long.parseUnsignedLong(line.substring(7).trim(), 16) & 0b10) != 0;
            }
        }
        return false;
    }

    private static Process start(List<String> prefix, String... args) throws IOException {
        List<String> command = new ArrayList<>(prefix);
        command.addAll(
                List.of(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        CosIdStoreCli.class.getName()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).start();
        p.getOutputStream().close();
        return p;
    }

    /**
     * Waits at most two minutes for a started tool to end, and what it printed.
     *
     * @throws AssertionError if it did not end within them
     */
    static ToolProcess finish(Process p, long startedNanos)
            throws IOException, InterruptedException {
        CompletableFuture<byte[]> err =
                CompletableFuture.supplyAsync(() -> readAll(p.getErrorStream()));
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(2, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError("the tool did not end within 2 minutes");
        }
        Duration took = Duration.ofNanos(System.nanoTime() - startedNanos);
        return new ToolProcess(
                p.exitValue(),
                new String(out, StandardCharsets.UTF_8),
                new String(err.join(), StandardCharsets.UTF_8),
                took);
    }

    private static byte[] readAll(InputStream in) {
        try {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
