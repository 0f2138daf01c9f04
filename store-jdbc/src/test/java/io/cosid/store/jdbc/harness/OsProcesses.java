package io.cosid.store.jdbc.harness;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;

/** Runs a short command to its end, failing with its output when it fails. */
final class OsProcesses {

    private OsProcesses() {}

    /** A loopback port free now, for a server to listen on. */
    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /**
     * Sends {@code signal} to each of {@code pids}. A process that ended meanwhile (a backend whose
     * client left, between the listing and the signal) is skipped; any other failure is thrown.
     */
    static void signal(String signal, List<Long> pids) throws IOException {
        for (long pid : pids) {
            try {
                run(List.of("kill", "-" + signal, Long.toString(pid)));
            } catch (IOException e) {
                if (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
                    throw e;
                }
            }
        }
    }

    /**
     * Kills {@code pids} (SIGKILL) and waits until they are gone: a server not yet reaped still
     * holds its pid (and its pid file), and a restart would take it for alive.
     */
    static void kill(List<Long> pids, Duration budget) throws IOException {
        signal("KILL", pids);
        Awaitility.await("the killed processes gone")
                .atMost(budget)
                .until(
                        () ->
                                pids.stream()
                                        .noneMatch(
                                                p ->
                                                        ProcessHandle.of(p)
                                                                .map(ProcessHandle::isAlive)
                                                                .orElse(false)));
    }

    /** Ends {@code started} and every process it started (SIGTERM), and waits for it. */
    static void end(Process started) throws InterruptedException {
        started.descendants().forEach(ProcessHandle::destroy);
        started.destroy();
        started.waitFor();
    }

    /** The process {@code started} and every process it started. */
    static List<Long> tree(Process started) {
        List<Long> all = new ArrayList<>();
        all.add(started.pid());
        started.descendants().forEach(d -> all.add(d.pid()));
        return all;
    }

    /** Runs {@code command}; returns its output (stdout and stderr together). */
    static String run(List<String> command) throws IOException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output;
        try {
            output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(5, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new IOException(String.join(" ", command) + " did not end in 5 minutes");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new IOException("interrupted running " + String.join(" ", command), e);
        }
        if (process.exitValue() != 0) {
            throw new IOException(
                    String.join(" ", command)
                            + " exited with "
                            + process.exitValue()
                            + ":\n"
                            + output);
        }
        return output;
    }
}
