package io.cosid.store.cli;

import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The {@code cosid-store} command: a demo on an embedded ZooKeeper, inspection of ranges and slots,
 * and the operator actions seal, advance, migrate and purge.
 *
 * <p>Exit codes by class: {@value ExitCodes#OK} success; {@value ExitCodes#FAILED} the store failed
 * (unreachable, timed out, corrupt data); {@value ExitCodes#USAGE} bad command line or
 * configuration (a malformed connect string fails here, before any connection attempt); {@value
 * ExitCodes#REFUSED} refused for safety (a confirmation flag is missing, leases are held, a key is
 * sealed, a namespace is defined otherwise); {@value ExitCodes#INVARIANT_BROKEN} an invariant is
 * broken (duplicate IDs, overlapping windows), and only that; {@value ExitCodes#NOT_FOUND} what the
 * command names does not exist (an undefined namespace, an unused key); 130 interrupted by Ctrl-C
 * (SIGINT). Errors go to stderr as one line in the user's terms; {@code --verbose} adds the stack
 * trace and the client libraries' warnings.
 */
@Command(
        name = "cosid-store",
        mixinStandardHelpOptions = true,
        versionProvider = CosIdStoreCli.Version.class,
        description =
                "Fleet-unique ranges and machine-id slot leases: demo, inspection, migration.",
        subcommands = {
            DemoCommand.class,
            RangesCommand.class,
            NamespacesCommand.class,
            SlotsCommand.class,
            MigrateCommand.class,
            PurgeCommand.class,
            AfterFailoverCommand.class,
            ServerCommand.class,
            AutoComplete.GenerateCompletion.class
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:success",
            "1:the store failed: unreachable, timed out, or corrupt data",
            "2:bad command line or configuration (a malformed connect string, too)",
            "3:refused for safety: a confirmation flag is missing, leases are held, a key is"
                    + " sealed, a namespace is defined otherwise",
            "4:an invariant is broken: duplicate IDs or overlapping windows",
            "5:not found: an undefined namespace or an unused key",
            "130:interrupted (Ctrl-C, SIGINT): what was under way may or may not have landed"
        })
public final class CosIdStoreCli {

    @Option(
            names = "--verbose",
            scope = CommandLine.ScopeType.INHERIT,
            description = "Print stack traces with errors.")
    boolean verbose;

    /** Levels the store's own log lines can be turned up or down to. */
    enum LogLevel {
        off,
        error,
        warn,
        info,
        debug,
        trace
    }

    @Option(
            names = "--log-level",
            scope = CommandLine.ScopeType.INHERIT,
            paramLabel = "LEVEL",
            description =
                    "The store's own log lines on stderr: ${COMPLETION-CANDIDATES} (default off;"
                            + " warn with --verbose). The ZooKeeper client's stay at warn with"
                            + " --verbose, off otherwise.")
    LogLevel logLevel;

    /**
     * The value of {@code --log-level} (or {@code --log-level=}) when it names a level; picocli
     * refuses any other value with a usage error.
     */
    private static Optional<String> logLevel(String[] args) {
        for (int i = 0; i < args.length; i++) {
            String value =
                    args[i].equals("--log-level") && i + 1 < args.length
                            ? args[i + 1]
                            : args[i].startsWith("--log-level=")
                                    ? args[i].substring("--log-level=".length())
                                    : null;
            if (value != null) {
                for (LogLevel level : LogLevel.values()) {
                    if (level.name().equals(value)) {
                        return Optional.of(value);
                    }
                }
            }
        }
        return Optional.empty();
    }

    /**
     * Runs the tool and exits with its exit code.
     *
     * @param args the command line
     */
    public static void main(String[] args) {
        AtomicBoolean finished = new AtomicBoolean();
        // A signal (Ctrl-C: exit 130) ends the JVM without run() returning: say so, since a
        // write under way may or may not have landed.
        Runtime.getRuntime()
                .addShutdownHook(
                        new Thread(
                                () -> {
                                    if (!finished.get()) {
                                        System.err.println(
                                                "cosid-store: stopped by a signal (Ctrl-C or"
                                                        + " SIGINT exits 130, SIGTERM 143); a"
                                                        + " write under way may or may not have"
                                                        + " landed");
                                        System.err.flush();
                                    }
                                },
                                "cosid-store-signal"));
        int code = run(args, System.out, System.err);
        finished.set(true);
        System.exit(code);
    }

    /**
     * Runs the tool in this JVM.
     *
     * @param args the command line
     * @param out where results go
     * @param err where errors go
     * @return the exit code
     */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        // ZooKeeper and Curator log connection trouble with stack traces; the tool says what went
        // wrong in one line instead, unless asked for more. Set before their loggers exist.
        System.setProperty(
                "org.slf4j.simpleLogger.defaultLogLevel",
                Arrays.asList(args).contains("--verbose") ? "warn" : "off");
        logLevel(args)
                .ifPresent(
                        level ->
                                System.setProperty(
                                        "org.slf4j.simpleLogger.log.io.cosid.store", level));
        CosIdStoreCli root = new CosIdStoreCli();
        CommandLine cli = new CommandLine(root);
        cli.setOut(new PrintWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), true));
        cli.setErr(new PrintWriter(new OutputStreamWriter(err, StandardCharsets.UTF_8), true));
        boolean json = Arrays.asList(args).contains("--json");
        cli.setExecutionExceptionHandler(
                (e, commandLine, parseResult) -> {
                    int code = ExitCodes.of(e);
                    PrintWriter w = commandLine.getErr();
                    if (json) {
                        w.println(Json.error(code, ExitCodes.describe(e)));
                    } else {
                        w.println("cosid-store: " + ExitCodes.line(e));
                    }
                    if (root.verbose) {
                        e.printStackTrace(w);
                    }
                    w.flush();
                    return code;
                });
        cli.setParameterExceptionHandler(
                (e, a) -> {
                    PrintWriter w = e.getCommandLine().getErr();
                    String help =
                            "Run '"
                                    + e.getCommandLine().getCommandSpec().qualifiedName()
                                    + " --help' for usage.";
                    if (json) {
                        w.println(Json.error(ExitCodes.USAGE, e.getMessage() + ". " + help));
                    } else {
                        w.println("cosid-store: " + e.getMessage());
                        w.println(help);
                    }
                    w.flush();
                    return ExitCodes.USAGE;
                });
        int code = cli.execute(args);
        out.flush();
        err.flush();
        return code;
    }

    /** The version from the jar's manifest, or the build's. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = CosIdStoreCli.class.getPackage().getImplementationVersion();
            return new String[] {"cosid-store " + (v == null ? "0.1.0-SNAPSHOT" : v)};
        }
    }
}
