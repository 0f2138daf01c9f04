package io.cosid.store.cli;

import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The {@code cosid-store} command: a demo on an embedded ZooKeeper, inspection of ranges and slots,
 * and the operator actions seal, advance, migrate and purge.
 *
 * <p>Exit codes: {@value ExitCodes#OK} success; {@value ExitCodes#FAILED} the store failed
 * (unreachable, timed out, corrupt data); {@value ExitCodes#USAGE} bad command line or
 * configuration; {@value ExitCodes#REFUSED} refused for safety (a confirmation flag is missing,
 * leases are held); {@value ExitCodes#CHECK_FAILED} a check failed (duplicates in the demo, a
 * migration that did not verify). Errors go to stderr as one line with the reason; {@code
 * --verbose} adds the stack trace.
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
            PurgeCommand.class
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:success",
            "1:the store failed: unreachable, timed out, or corrupt data",
            "2:bad command line or configuration",
            "3:refused for safety: a confirmation flag is missing, or leases are held",
            "4:a check failed: duplicates in the demo, or a migration that did not verify"
        })
public final class CosIdStoreCli {

    @Option(
            names = "--verbose",
            scope = CommandLine.ScopeType.INHERIT,
            description = "Print stack traces with errors.")
    boolean verbose;

    /**
     * Runs the tool and exits with its exit code.
     *
     * @param args the command line
     */
    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
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
        CosIdStoreCli root = new CosIdStoreCli();
        CommandLine cli = new CommandLine(root);
        cli.setOut(new PrintWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), true));
        cli.setErr(new PrintWriter(new OutputStreamWriter(err, StandardCharsets.UTF_8), true));
        cli.setExecutionExceptionHandler(
                (e, commandLine, parseResult) -> {
                    PrintWriter w = commandLine.getErr();
                    w.println("cosid-store: " + ExitCodes.describe(e));
                    if (root.verbose) {
                        e.printStackTrace(w);
                    }
                    w.flush();
                    return ExitCodes.of(e);
                });
        cli.setParameterExceptionHandler(
                (e, a) -> {
                    PrintWriter w = e.getCommandLine().getErr();
                    w.println("cosid-store: " + e.getMessage());
                    w.println(
                            "Run '"
                                    + e.getCommandLine().getCommandSpec().qualifiedName()
                                    + " --help' for usage.");
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
