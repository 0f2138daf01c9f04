package io.cosid.store.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;

/**
 * Every Java snippet of the READMEs compiles as a user copies it: its imports at the top of a file,
 * the rest as the body of a method (or as it is, when it declares a class), against the published
 * modules. No placeholder, no undeclared variable.
 */
@DisplayName("README snippets compile as copied, and the TCK snippet passes as copied")
class ReadmeSnippetsTest {

    private static final List<String> READMES =
            List.of("README.md", "store-zookeeper/README.md", "store-jdbc/README.md");
    private static final Pattern CLASS = Pattern.compile("(?m)^(public |final |abstract )*class ");

    @TempDir Path out;

    /** One ```java block: where it starts and its lines. */
    private record Snippet(String file, int line, List<String> lines) {}

    @TestFactory
    Stream<DynamicTest> snippets() throws IOException {
        List<Snippet> all = new ArrayList<>();
        for (String readme : READMES) {
            all.addAll(snippetsOf(readme));
        }
        assertThat(all).as("snippets found").hasSizeGreaterThan(5);
        return all.stream()
                .map(
                        s ->
                                DynamicTest.dynamicTest(
                                        s.file() + " line " + s.line(), () -> compile(s)));
    }

    private static List<Snippet> snippetsOf(String readme) throws IOException {
        List<String> lines = Files.readAllLines(root().resolve(readme));
        List<Snippet> found = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).equals("```java")) {
                int start = i + 1;
                int end = start;
                while (!lines.get(end).equals("```")) {
                    end++;
                }
                found.add(new Snippet(readme, start, lines.subList(start, end)));
                i = end;
            }
        }
        return found;
    }

    /** The project's root: this module's parent. */
    private static Path root() {
        return Path.of("").toAbsolutePath().getParent();
    }

    private void compile(Snippet snippet) throws IOException {
        StringBuilder imports = new StringBuilder();
        StringBuilder body = new StringBuilder();
        for (String line : snippet.lines()) {
            (line.startsWith("import ") ? imports : body).append(line).append('\n');
        }
        String source =
                CLASS.matcher(body).find()
                        ? imports + "\n" + body
                        : imports
                                + "\nclass Snippet {\n  void run() throws Exception {\n"
                                + body
                                + "  }\n}\n";
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        StringWriter log = new StringWriter();
        Path classes = Files.createDirectories(out.resolve("s" + snippet.line()));
        boolean ok =
                compiler.getTask(
                                log,
                                null,
                                diagnostics,
                                List.of(
                                        "-proc:none",
                                        "-d",
                                        classes.toString(),
                                        "-cp",
                                        System.getProperty("java.class.path")),
                                null,
                                List.of(new Source(source)))
                        .call();
        assertThat(ok)
                .as(
                        "%s line %d compiles; diagnostics: %s%n%s",
                        snippet.file(), snippet.line(), diagnostics.getDiagnostics(), source)
                .isTrue();
        Matcher kit = KIT.matcher(source);
        if (kit.find()) {
            runKit(classes, kit.group(1), snippet);
        }
    }

    /** A snippet's test class that extends the TCK: it must pass as copied. */
    private static final Pattern KIT =
            Pattern.compile("class (\\w+) extends StoreCompatibilityKit");

    /** Runs the TCK class {@code name} compiled into {@code classes}; every test must pass. */
    private static void runKit(Path classes, String name, Snippet snippet) throws IOException {
        try (URLClassLoader loader =
                new URLClassLoader(
                        new URL[] {classes.toUri().toURL()},
                        ReadmeSnippetsTest.class.getClassLoader())) {
            Class<?> kit = loader.loadClass(name);
            SummaryGeneratingListener summary = new SummaryGeneratingListener();
            LauncherFactory.create()
                    .execute(
                            LauncherDiscoveryRequestBuilder.request()
                                    .selectors(DiscoverySelectors.selectClass(kit))
                                    .build(),
                            summary);
            StringWriter failures = new StringWriter();
            summary.getSummary().printFailuresTo(new PrintWriter(failures), 5);
            assertThat(summary.getSummary().getTotalFailureCount())
                    .as(
                            "%s line %d: the TCK as copied; failures:%n%s",
                            snippet.file(), snippet.line(), failures)
                    .isZero();
            assertThat(summary.getSummary().getTestsFoundCount())
                    .as("tests the copied TCK found")
                    .isGreaterThan(300);
            // without a settable clock or tampering some are skipped, visibly; the rest pass
            assertThat(summary.getSummary().getTestsSucceededCount())
                    .as("tests the copied TCK passed")
                    .isGreaterThan(200);
        } catch (ClassNotFoundException e) {
            throw new AssertionError("compiled, yet not found: " + name, e);
        }
    }

    /** A source held in memory. */
    private static final class Source extends SimpleJavaFileObject {
        private final String code;

        Source(String code) {
            super(URI.create("string:///Snippet.java"), Kind.SOURCE);
            this.code = code;
        }

        @Override
        public CharSequence getCharContent(boolean ignoreEncodingErrors) {
            return code;
        }
    }
}
