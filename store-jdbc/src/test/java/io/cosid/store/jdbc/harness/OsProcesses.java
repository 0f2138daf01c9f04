package io.cosid.store.jdbc.harness;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a short command to its end, failing with its output when it fails. */
final class OsProcesses {

    private OsProcesses() {}

    /** A loopback port free now, for a server to listen on. */
    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
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
