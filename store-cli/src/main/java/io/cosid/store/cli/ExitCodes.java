package io.cosid.store.cli;

import io.cosid.store.StoreException;

/** The tool's exit codes and how failures map to them. */
final class ExitCodes {

    static final int OK = 0;
    static final int FAILED = 1;
    static final int USAGE = 2;
    static final int REFUSED = 3;
    static final int CHECK_FAILED = 4;

    private ExitCodes() {}

    static int of(Throwable e) {
        if (e instanceof Refused r) {
            return r.code;
        }
        if (e instanceof IllegalArgumentException
                || e instanceof picocli.CommandLine.ParameterException) {
            return USAGE;
        }
        return FAILED;
    }

    /** One line: what failed and why, without a stack trace. */
    static String describe(Throwable e) {
        if (e instanceof Refused
                || e instanceof StoreException
                || e instanceof IllegalArgumentException
                || e instanceof IllegalStateException
                || e instanceof picocli.CommandLine.ParameterException) {
            return (e instanceof Refused ? "" : "error: ") + e.getMessage();
        }
        return "error: " + e.getClass().getSimpleName() + ": " + e.getMessage();
    }

    /** A command group called without one of its subcommands: a usage error that lists them. */
    static picocli.CommandLine.ParameterException missingSubcommand(
            picocli.CommandLine.Model.CommandSpec spec) {
        return new picocli.CommandLine.ParameterException(
                spec.commandLine(), "name a subcommand: " + spec.subcommands().keySet());
    }

    /** A deliberate refusal or failed check, with its exit code and the reason. */
    static final class Refused extends RuntimeException {
        final int code;

        Refused(int code, String message) {
            super(message);
            this.code = code;
        }
    }
}
