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
    @DisplayName("no line is longer than 100 columns, but an import (never wrapped)")
    void lineLimit() {
        List<String> tooLong = new ArrayList<>();
        for (Path file : javaFiles()) {
            List<String> lines = lines(file);
            for (int i = 0; i < lines.size(); i++) {
                // Google Java Style 3.3.1: imports are not line-wrapped, the limit does not apply
                if (lines.get(i).length() > LINE_LIMIT && !lines.get(i).startsWith("import ")) {
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

    /** The most lines a main source file may have (DEVELOPERS.md: small files with one job). */
    static final int CLASS_LIMIT = 500;

    /** The most lines a method of main code may have, from its declaration to its brace. */
    static final int METHOD_LIMIT = 60;

    @Test
    @DisplayName("no main source file is over 500 lines")
    void classLimit() {
        List<String> tooLong = new ArrayList<>();
        for (Path file : javaFiles()) {
            if (isMain(file) && lines(file).size() > CLASS_LIMIT) {
                tooLong.add(root().relativize(file) + " (" + lines(file).size() + " lines)");
            }
        }
        assertThat(tooLong).as("main files over %d lines", CLASS_LIMIT).isEmpty();
    }

    @Test
    @DisplayName("no method of main code is over 60 lines")
    void methodLimit() {
        List<String> tooLong = new ArrayList<>();
        for (Path file : javaFiles()) {
            if (isMain(file)) {
                for (int[] m : longMethods(lines(file), METHOD_LIMIT)) {
                    tooLong.add(root().relativize(file) + ":" + m[0] + " (" + m[1] + " lines)");
                }
            }
        }
        assertThat(tooLong).as("methods over %d lines", METHOD_LIMIT).isEmpty();
    }

    @Test
    @DisplayName("the method check counts a long method, and not a long class, lambda or comment")
    void methodCheckWorks() {
        List<String> longMethod = new ArrayList<>(List.of("class A {", "    void m() {"));
        for (int i = 0; i < 70; i++) {
            longMethod.add("        x(\"{\"); // {");
        }
        longMethod.addAll(List.of("    }", "}"));
        assertThat(longMethods(longMethod, METHOD_LIMIT)).hasSize(1);
        assertThat(longMethods(longMethod, METHOD_LIMIT).get(0)).containsExactly(2, 72);
        List<String> shortMethods = new ArrayList<>(List.of("class A {"));
        for (int i = 0; i < 40; i++) {
            shortMethods.addAll(List.of("    void m" + i + "() {", "        x();", "    }"));
        }
        shortMethods.add("}");
        assertThat(longMethods(shortMethods, METHOD_LIMIT)).isEmpty();
    }

    private static boolean isMain(Path file) {
        String path = root().relativize(file).toString();
        return path.contains("src/main/java") && !path.contains("src/it/");
    }

    private static final Pattern TYPE = Pattern.compile("\\b(class|record|enum|interface)\\s+\\w+");
    private static final Pattern CALL = Pattern.compile("\\w+\\s*\\(");

    /**
     * The methods (and constructors) of a source longer than {@code limit} lines, each as its first
     * line and its length. Braces are counted outside strings and comments; a block that opens at a
     * type's body level on a declaration line is a method, any other block belongs to one.
     */
    static List<int[]> longMethods(List<String> lines, int limit) {
        List<int[]> found = new ArrayList<>();
        List<String> kinds = new ArrayList<>(); // per open brace: type, method or block
        List<Integer> starts = new ArrayList<>();
        boolean inComment = false;
        int pending = -1;
        for (int no = 1; no <= lines.size(); no++) {
            String code = STRING_LITERAL.matcher(lines.get(no - 1)).replaceAll("\"\"");
            if (inComment) {
                int end = code.indexOf("*/");
                if (end < 0) {
                    continue;
                }
                code = code.substring(end + 2);
                inComment = false;
            }
            code = code.replaceAll("/\\*.*?\\*/", "");
            int open = code.indexOf("/*");
            if (open >= 0) {
                code = code.substring(0, open);
                inComment = true;
            }
            int slashes = code.indexOf("//");
            String st = (slashes < 0 ? code : code.substring(0, slashes)).strip();
            boolean atTypeLevel = !kinds.isEmpty() && kinds.get(kinds.size() - 1).equals("type");
            boolean isType = TYPE.matcher(st).find();
            if (atTypeLevel
                    && pending < 0
                    && CALL.matcher(st).find()
                    && !isType
                    && !st.startsWith("return")
                    && !st.startsWith("new ")
                    && !st.split("\\(", 2)[0].contains("=")) {
                pending = no;
            }
            for (int c = 0; c < st.length(); c++) {
                char ch = st.charAt(c);
                if (ch == '{') {
                    boolean typeLevel =
                            kinds.isEmpty() || kinds.get(kinds.size() - 1).equals("type");
                    String kind =
                            isType && typeLevel
                                    ? "type"
                                    : typeLevel && pending > 0 ? "method" : "block";
                    kinds.add(kind);
                    starts.add(kind.equals("method") ? pending : no);
                    if (!kind.equals("block")) {
                        pending = -1;
                    }
                } else if (ch == '}' && !kinds.isEmpty()) {
                    String kind = kinds.remove(kinds.size() - 1);
                    int start = starts.remove(starts.size() - 1);
                    if (kind.equals("method") && no - start + 1 > limit) {
                        found.add(new int[] {start, no - start + 1});
                    }
                }
            }
            boolean inMethod = !kinds.isEmpty() && kinds.get(kinds.size() - 1).equals("method");
            if ((st.endsWith(";") || st.endsWith("}")) && !inMethod) {
                pending = -1;
            }
        }
        return found;
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
