package io.cosid.store.cli;

import io.cosid.store.NamespaceConflictException;
import io.cosid.store.NamespaceNotFoundException;
import io.cosid.store.RangeSealedException;
import io.cosid.store.SlotBusyException;
import io.cosid.store.StoreException;
import java.util.regex.Pattern;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * The tool's exit codes by class of failure, and the one line each failure prints.
 * docs/operations.md lists them; {@code --help} too.
 */
final class ExitCodes {

    static final int OK = 0;

    /** The store failed: unreachable, timed out, or its data is corrupt. */
    static final int FAILED = 1;

    /** A bad command line or configuration, including a malformed connect string. */
    static final int USAGE = 2;

    /**
     * Refused for safety: a confirmation is missing, leases are held, or the store refused what its
     * state forbids (a sealed key, a namespace defined otherwise, a slot held).
     */
    static final int REFUSED = 3;

    /** An invariant is broken: duplicate IDs or overlapping windows. Only that. */
    static final int INVARIANT_BROKEN = 4;

    /** What the command names does not exist: an undefined namespace, an unused key. */
    static final int NOT_FOUND = 5;

    /**
     * The settings the tool itself makes, by the keys a library message names them with, and the
     * flag a user typed for them.
     */
    private static final Pattern OWN_STORE = Pattern.compile("cosid\\.stores\\.(cli|demo)\\.");

    private ExitCodes() {}

    static int of(Throwable e) {
        if (e instanceof Refused r) {
            return r.code;
        }
        if (e instanceof NamespaceNotFoundException) {
            return NOT_FOUND;
        }
        if (isStoreRefusal(e)) {
            return REFUSED;
        }
        if (e instanceof IllegalArgumentException || e instanceof ParameterException) {
            return USAGE;
        }
        return FAILED;
    }

    /**
     * Whether the store refused what its state forbids, changing nothing: the caller's answer, not
     * a failure of the store.
     */
    private static boolean isStoreRefusal(Throwable e) {
        return e instanceof RangeSealedException
                || e instanceof NamespaceConflictException
                || e instanceof SlotBusyException;
    }

    /**
     * One line for people: {@link #describe}, after "error: ", or "refused: " when the store
     * refused (a refusal of the tool's own says so itself).
     */
    static String line(Throwable e) {
        String prefix = e instanceof Refused ? "" : isStoreRefusal(e) ? "refused: " : "error: ";
        return prefix + describe(e);
    }

    /**
     * One line: what failed and why, in the user's terms (the flags they typed, not the keys the
     * tool configured for them), without a stack trace.
     */
    static String describe(Throwable e) {
        String message = e.getMessage() == null ? "" : e.getMessage();
        String line =
                e instanceof Refused
                                || e instanceof StoreException
                                || e instanceof IllegalArgumentException
                                || e instanceof IllegalStateException
                                || e instanceof ParameterException
                        ? message
                        : e.getClass().getSimpleName() + ": " + message;
        return inFlags(line).lines().findFirst().orElse("");
    }

    /** A library message about the store the tool configured, with its flags in place of keys. */
    static String inFlags(String text) {
        // the library's advice names its Java API; the tool's user acts with a command
        String message =
                text.replace(
                        "define it first with SlotLeaseStore.define",
                        "define it first with: cosid-store slots define NAMESPACE --limit N"
                                + " --tolerance 1s");
        // the tool's own store is "cli" or "demo" to the library: the user named none
        message =
                message.replace("store 'cli'", "the store")
                        .replace("store 'demo'", "the demo's store")
                        .replace(
                                "or open with option schema: create",
                                "or, with --config, open a store whose options set schema:"
                                        + " create");
        if (!OWN_STORE.matcher(message).find()) {
            return message.replace("(blockUntilConnectedWait)", "(--connect-wait)");
        }
        return OWN_STORE
                .matcher(message)
                .replaceAll("cosid.stores.tool.")
                .replace("cosid.stores.tool.options.url", "--jdbc-url")
                .replace("cosid.stores.tool.options.connectString", "--connect")
                .replace("cosid.stores.tool.options.root", "--root")
                .replace("cosid.stores.tool.options.blockUntilConnectedWait", "--connect-wait")
                .replace("cosid.stores.tool.timeout", "--timeout")
                .replace("(blockUntilConnectedWait)", "(--connect-wait)");
    }

    /** A command group called without one of its subcommands: a usage error that lists them. */
    static ParameterException missingSubcommand(CommandSpec spec) {
        return new ParameterException(
                spec.commandLine(), "name a subcommand: " + spec.subcommands().keySet());
    }

    /** A deliberate refusal, failed check or absence, with its exit code and the reason. */
    static final class Refused extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final int code;

        Refused(int code, String message) {
            super(message);
            this.code = code;
        }
    }
}
