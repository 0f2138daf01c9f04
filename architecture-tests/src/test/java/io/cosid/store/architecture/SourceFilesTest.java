package io.cosid.store.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The rules of the source files that the formatter does not enforce: the line limit of comments and
 * {@code <pre>} blocks it leaves alone, and type names written out in code instead of imported.
 */
@DisplayName("Source files")
class SourceFilesTest {

    /** The column limit, as google-java-format's (CONTRIBUTING.md). */
    static final int LINE_LIMIT = 100;

    /** A qualified type name in code: lower-case package segments, then an upper-case type name. */
    private static final Pattern QUALIFIED_NAME =
            Pattern.compile(
                    "(?<![\\w.\"])(?:java|javax|org|com|io|jakarta|dagger|picocli|me)"
                            + "\\.[a-z]\\w*(?:\\.[a-z]\\w*)*\\.[A-Z]\\w*");

    private static final Pattern STRING_LITERAL = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"");

    @Test
    @DisplayName("there are sources to check (the test runs from its module inside the project)")
    void sourcesFound() {
        assertThat(javaFiles()).hasSizeGreaterThan(100);
    }

    @Test
    @DisplayName("no line is longer than 100 columns")
    void lineLimit() {
        List<String> tooLong = new ArrayList<>();
        for (Path file : javaFiles()) {
            List<String> lines = lines(file);
            for (int i = 0; i < lines.size(); i++) {
                if (lines.get(i).length() > LINE_LIMIT) {
                    tooLong.add(root().relativize(file) + ":" + (i + 1));
                }
            }
        }
        assertThat(tooLong).as("lines over %d columns", LINE_LIMIT).isEmpty();
    }

    @Test
    @DisplayName("code names types by their imports, never by fully-qualified names")
    void noInlineQualifiedNames() {
        List<String> found = new ArrayList<>();
        for (Path file : javaFiles()) {
            List<String> lines = lines(file);
            for (int i = 0; i < lines.size(); i++) {
                String code = codeOf(lines.get(i));
                Matcher m = QUALIFIED_NAME.matcher(code);
                if (m.find()) {
                    found.add(root().relativize(file) + ":" + (i + 1) + " " + m.group());
                }
            }
        }
        assertThat(found).as("fully-qualified names in code").isEmpty();
    }

    @Test
    @DisplayName("the name check finds a qualified name in code, and none in strings or comments")
    void nameCheckWorks() {
        assertThat(QUALIFIED_NAME.matcher(codeOf("    java.util.List<String> x;")).find()).isTrue();
        assertThat(QUALIFIED_NAME.matcher(codeOf("    x = \"java.util.List\";")).find()).isFalse();
        assertThat(QUALIFIED_NAME.matcher(codeOf("    x(); // see java.util.List")).find())
                .isFalse();
        assertThat(QUALIFIED_NAME.matcher(codeOf("import java.util.List;")).find()).isFalse();
    }

    @Test
    @DisplayName("every main package is @NullMarked, so NullAway checks it")
    void everyPackageNullMarked() {
        List<String> unmarked = new ArrayList<>();
        for (Path dir : mainPackages()) {
            Path info = dir.resolve("package-info.java");
            if (!Files.exists(info) || !nullMarked(String.join("\n", lines(info)))) {
                unmarked.add(root().relativize(dir).toString());
            }
        }
        assertThat(unmarked).as("main packages without @NullMarked").isEmpty();
    }

    @Test
    @DisplayName("the @NullMarked check finds the annotation on the package, not in its comment")
    void nullMarkedCheckWorks() {
        assertThat(nullMarked("/** x */\n@NullMarked\npackage a.b;\n")).isTrue();
        assertThat(nullMarked("/** Not {@code @NullMarked} yet. */\npackage a.b;\n")).isFalse();
        assertThat(nullMarked("package a.b;\n")).isFalse();
    }

    private static boolean nullMarked(String packageInfo) {
        return Pattern.compile("^@NullMarked\\s*$", Pattern.MULTILINE).matcher(packageInfo).find();
    }

    /** Every directory of a main source tree that holds a class (module-info aside). */
    private static List<Path> mainPackages() {
        return javaFiles().stream()
                .filter(p -> root().relativize(p).toString().contains("src/main/java"))
                // the integration-test projects are users' code, not the project's
                .filter(p -> !root().relativize(p).toString().contains("src/it/"))
                .filter(p -> !p.getFileName().toString().equals("module-info.java"))
                .map(Path::getParent)
                .distinct()
                .toList();
    }

    /** The code of a line: nothing of imports, package lines, comments or string literals. */
    private static String codeOf(String line) {
        String s = line.strip();
        if (s.startsWith("import ")
                || s.startsWith("package ")
                || s.startsWith("/*")
                || s.startsWith("*")
                || s.startsWith("//")) {
            return "";
        }
        String code = STRING_LITERAL.matcher(line).replaceAll("\"\"");
        int comment = code.indexOf("//");
        return comment < 0 ? code : code.substring(0, comment);
    }

    private static Path root() {
        return Path.of("").toAbsolutePath().getParent();
    }

    private static List<Path> javaFiles() {
        try (Stream<Path> all = Files.walk(root())) {
            return all.filter(p -> p.toString().endsWith(".java"))
                    .filter(p -> !root().relativize(p).toString().contains("target"))
                    .filter(p -> root().relativize(p).toString().contains("src"))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
