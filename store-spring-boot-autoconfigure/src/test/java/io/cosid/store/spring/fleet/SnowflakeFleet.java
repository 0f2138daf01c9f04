package io.cosid.store.spring.fleet;

import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Instances of {@link FleetApp}, each a JVM of its own on this test's class path (so on whatever
 * Spring Boot line the test runs), optionally with its wall clock shifted by libfaketime: start,
 * kill -9, stop gracefully, and read back every ID they wrote.
 */
public final class SnowflakeFleet implements AutoCloseable {

    /**
     * libfaketime for multi-threaded programs, preloaded directly rather than through the {@code
     * faketime} wrapper: the wrapper keeps a semaphore per process id in /dev/shm that an instance
     * killed with SIGKILL leaves behind, and a later process with that id then fails to start.
     */
    private static final Path FAKETIME =
            Path.of("/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1");

    private final Path dir;
    private final List<String> properties;
    private final List<Instance> instances = new ArrayList<>();

    /**
     * A fleet writing into {@code dir}, every instance started with {@code properties}.
     *
     * @param dir where the instances' ID files and logs go
     * @param properties the application's properties, as {@code --key=value}
     */
    public SnowflakeFleet(Path dir, List<String> properties) {
        this.dir = dir;
        this.properties = List.copyOf(properties);
    }

    /**
     * Whether libfaketime is installed (Debian package libfaketime, which package faketime brings).
     *
     * @return true when it is
     */
    public static boolean faketimeAvailable() {
        return Files.isReadable(FAKETIME);
    }

    /**
     * Starts an instance and waits until it generates.
     *
     * @param name the instance's name, for its files
     * @param instanceId its stable instance id (the machine id's owner key)
     * @param clockOffset a libfaketime offset such as {@code "-1.5s"}, or null for the real clock
     * @return the instance
     * @throws IOException if the JVM cannot be started
     */
    public Instance start(String name, String instanceId, String clockOffset) throws IOException {
        List<String> command = new ArrayList<>();
        Path out = dir.resolve(name + ".ids");
        command.addAll(
                List.of(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-Xmx256m",
                        "-XX:+UseSerialGC",
                        "-XX:TieredStopAtLevel=1",
                        "-Dfleet.out=" + out,
                        "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                        "-cp",
                        System.getProperty("java.class.path"),
                        FleetApp.class.getName()));
        command.addAll(properties);
        command.add("--cosid-store.machine.snowflake.instance-id=" + instanceId);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        if (clockOffset != null) {
            builder.environment().put("LD_PRELOAD", FAKETIME.toString());
            builder.environment().put("FAKETIME", clockOffset);
            // only the wall clock is shifted: leases run on real monotonic time
            builder.environment().put("FAKETIME_DONT_FAKE_MONOTONIC", "1");
        }
        Instance instance = new Instance(name, builder.start(), out, dir.resolve(name + ".log"));
        instances.add(instance);
        instance.await("generating", Duration.ofMinutes(2));
        return instance;
    }

    /**
     * Every ID every instance wrote, sorted.
     *
     * @return the IDs
     * @throws IOException if a file cannot be read
     */
    public long[] allIds() throws IOException {
        List<long[]> parts = new ArrayList<>();
        for (Instance i : instances) {
            parts.add(i.ids());
        }
        long[] all = parts.stream().flatMapToLong(Arrays::stream).toArray();
        Arrays.sort(all);
        return all;
    }

    @Override
    public void close() {
        instances.forEach(i -> i.process.destroyForcibly());
    }

    /** One running (or ended) instance. */
    public static final class Instance {
        private final String name;
        private final Process process;
        private final Path out;
        private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        private final StringBuilder log = new StringBuilder();

        Instance(String name, Process process, Path out, Path logFile) {
            this.name = name;
            this.process = process;
            this.out = out;
            Thread reader =
                    new Thread(() -> pump(process.getInputStream(), logFile), "fleet-" + name);
            reader.setDaemon(true);
            reader.start();
        }

        private void pump(InputStream stream, Path logFile) {
            try (BufferedReader r =
                    new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                    synchronized (log) {
                        log.append(line).append('\n');
                    }
                    lines.add(line);
                }
                synchronized (log) {
                    Files.writeString(logFile, log);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** Waits for a line the instance prints; fails with its output if it ends first. */
        void await(String expected, Duration within) {
            long deadline = System.nanoTime() + within.toNanos();
            try {
                while (System.nanoTime() - deadline < 0) {
                    String line = lines.poll(100, TimeUnit.MILLISECONDS);
                    if (expected.equals(line)) {
                        return;
                    }
                    if (line == null && !process.isAlive() && lines.isEmpty()) {
                        break;
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            throw new AssertionError(
                    "instance " + name + " did not print '" + expected + "'; output:\n" + output());
        }

        /**
         * Kills the instance with SIGKILL: nothing runs after it, no release.
         *
         * @throws InterruptedException if interrupted while waiting for it to end
         */
        public void kill() throws InterruptedException {
            process.destroyForcibly();
            process.waitFor(60, TimeUnit.SECONDS);
        }

        /**
         * Stops the instance as its operator would: it closes its context (releasing the machine
         * id) and exits 0.
         *
         * @throws IOException if its input cannot be written
         * @throws InterruptedException if interrupted while waiting for it to end
         */
        public void stop() throws IOException, InterruptedException {
            process.getOutputStream().write('\n');
            process.getOutputStream().flush();
            await("stopped", Duration.ofMinutes(1));
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new AssertionError(
                        "instance " + name + " did not exit 0; output:\n" + output());
            }
        }

        /**
         * How many IDs the instance has written so far.
         *
         * @return the count on disk
         * @throws IOException if the file cannot be read
         */
        public long written() throws IOException {
            return Files.exists(out) ? Files.size(out) / Long.BYTES : 0;
        }

        /**
         * The IDs the instance wrote, in order.
         *
         * @return the IDs
         * @throws IOException if the file cannot be read
         */
        public long[] ids() throws IOException {
            long[] ids = new long[(int) written()];
            try (DataInputStream in =
                    new DataInputStream(new BufferedInputStream(Files.newInputStream(out)))) {
                for (int i = 0; i < ids.length; i++) {
                    ids[i] = in.readLong();
                }
            } catch (EOFException partial) {
                throw new AssertionError("instance " + name + "'s file ends inside an ID");
            }
            return ids;
        }

        /**
         * What the instance printed so far.
         *
         * @return its output
         */
        public String output() {
            synchronized (log) {
                return log.toString();
            }
        }
    }
}
