package io.cosid.store.cli;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.tukaani.xz.XZInputStream;

/**
 * PostgreSQL's programs for the tool's embedded server: zonky's Linux x86-64 build, which the tool
 * carries on its class path, unpacked once per version under the system's temporary directory,
 * readable by every user (as root the server runs as {@code nobody}: PostgreSQL refuses root).
 */
final class PostgresPrograms {

    private static final String ARCHIVE = "postgres-linux-x86_64.txz";

    /** PostgreSQL refuses to run as root; as root the tool runs it as this user. */
    static final String UNPRIVILEGED = "nobody";

    private final Path home;

    private PostgresPrograms(Path home) {
        this.home = home;
    }

    /**
     * The programs, unpacked now if no earlier run did; refused, naming why, where they cannot run.
     */
    static PostgresPrograms unpacked() {
        String os = System.getProperty("os.name", "?");
        String arch = System.getProperty("os.arch", "?");
        if (!os.toLowerCase(Locale.ROOT).startsWith("linux")
                || !(arch.equals("amd64") || arch.equals("x86_64"))) {
            throw new IllegalArgumentException(
                    "the embedded PostgreSQL runs on Linux x86-64 only (this is "
                            + os
                            + " "
                            + arch
                            + "); start a PostgreSQL yourself and name it with --jdbc-url, or use"
                            + " --backend zookeeper");
        }
        String version = carriedVersion();
        Path base = Path.of(System.getProperty("java.io.tmpdir"), "cosid-store-postgres");
        Path home = base.resolve(version);
        try {
            if (!Files.isRegularFile(home.resolve(".unpacked"))) {
                unpack(base, home);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot unpack PostgreSQL " + version + " into " + home + ": " + e, e);
        }
        return new PostgresPrograms(home);
    }

    Path program(String name) {
        return home.resolve("bin").resolve(name);
    }

    /** The command prefix that runs a program as a user PostgreSQL accepts. */
    static List<String> asUnprivileged() {
        return isRoot() ? List.of("runuser", "-u", UNPRIVILEGED, "--") : List.of();
    }

    static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    private static String carriedVersion() {
        Properties p = new Properties();
        try (InputStream in =
                PostgresPrograms.class.getResourceAsStream(
                        "/cosid-store/embedded-postgres.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String version = p.getProperty("version");
        if (version == null || PostgresPrograms.class.getResource("/" + ARCHIVE) == null) {
            throw new IllegalStateException(
                    "this build of the tool carries no PostgreSQL (" + ARCHIVE + " not found)");
        }
        return version;
    }

    /**
     * Unpacks into a directory of its own, then moves that into place in one step: two tools
     * starting at once each unpack, one wins, and nobody sees half a directory.
     */
    private static void unpack(Path base, Path home) throws IOException {
        Files.createDirectories(base);
        readableByAll(base);
        Path staging = base.resolve(".unpacking-" + UUID.randomUUID());
        try {
            extract(staging);
            Files.createFile(staging.resolve(".unpacked"));
            try {
                Files.move(staging, home, StandardCopyOption.ATOMIC_MOVE);
            } catch (FileAlreadyExistsException | DirectoryNotEmptyException e) {
                // another run moved the same version into place first, or left half of one there
                if (!Files.isRegularFile(home.resolve(".unpacked"))) {
                    throw new IOException(
                            home + " is there but incomplete; remove it and try again", e);
                }
            }
        } finally {
            Directories.delete(staging);
        }
    }

    private static void extract(Path into) throws IOException {
        Files.createDirectories(into);
        readableByAll(into);
        try (InputStream raw = PostgresPrograms.class.getResourceAsStream("/" + ARCHIVE);
                TarArchiveInputStream tar =
                        new TarArchiveInputStream(
                                new XZInputStream(
                                        new BufferedInputStream(Objects.requireNonNull(raw))))) {
            for (TarArchiveEntry entry = tar.getNextEntry();
                    entry != null;
                    entry = tar.getNextEntry()) {
                Path target = into.resolve(entry.getName()).normalize();
                if (!target.startsWith(into)) {
                    throw new IOException("archive entry outside its directory: " + entry);
                }
                if (entry.isDirectory()) {
                    Files.createDirectories(target);
                } else if (entry.isSymbolicLink()) {
                    Files.createDirectories(target.getParent());
                    Files.createSymbolicLink(target, Path.of(entry.getLinkName()));
                    continue;
                } else {
                    Files.createDirectories(target.getParent());
                    Files.copy(tar, target, StandardCopyOption.REPLACE_EXISTING);
                }
                Files.setPosixFilePermissions(target, permissions(entry.getMode()));
            }
        }
    }

    /** The archive's mode, made readable (and, where executable, runnable) by every user. */
    private static Set<PosixFilePermission> permissions(int mode) {
        Set<PosixFilePermission> p =
                EnumSet.of(
                        PosixFilePermission.OWNER_READ,
                        PosixFilePermission.OWNER_WRITE,
                        PosixFilePermission.GROUP_READ,
                        PosixFilePermission.OTHERS_READ);
        if ((mode & 0111) != 0) {
            p.addAll(
                    EnumSet.of(
                            PosixFilePermission.OWNER_EXECUTE,
                            PosixFilePermission.GROUP_EXECUTE,
                            PosixFilePermission.OTHERS_EXECUTE));
        }
        return p;
    }

    private static void readableByAll(Path dir) {
        try {
            Files.setPosixFilePermissions(dir, permissions(0755));
        } catch (IOException e) {
            // another user's directory, made so by its owner's run: reading it is all we need
        }
    }
}
