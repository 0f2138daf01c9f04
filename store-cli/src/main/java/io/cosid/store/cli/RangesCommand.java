package io.cosid.store.cli;

import io.cosid.store.RangeState;
import io.cosid.store.Store;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code ranges list|show|seal|advance}: the range counters of a store. */
@Command(
        name = "ranges",
        mixinStandardHelpOptions = true,
        description = "Inspect and operate range counters.",
        subcommands = {
            RangesCommand.ListKeys.class,
            RangesCommand.Show.class,
            RangesCommand.Seal.class,
            RangesCommand.Advance.class
        })
final class RangesCommand implements Callable<Integer> {

    @Spec CommandSpec spec;

    /** A change to a key nobody ever used: what a mistyped key looks like. */
    static ExitCodes.Refused unusedKey(String key, String anyway) {
        return new ExitCodes.Refused(
                ExitCodes.REFUSED,
                "refused: range key "
                        + key
                        + " was never used, which is what a mistyped key looks like; nothing was"
                        + " written. To "
                        + anyway
                        + " anyway, add --unused-key");
    }

    /** Without a subcommand: say which ones exist. */
    @Override
    public Integer call() {
        throw ExitCodes.missingSubcommand(spec);
    }

    @Command(
            name = "list",
            mixinStandardHelpOptions = true,
            description = "List every key with next and sealed.")
    static final class ListKeys implements Callable<Integer> {
        @Mixin StoreSelection selection;

        @Mixin JsonOption output;

        @Spec CommandSpec spec;

        @Override
        public Integer call() {
            try (Store store = selection.open()) {
                Map<String, RangeState> all = store.ranges().list();
                if (output.json) {
                    List<Object> keys = new ArrayList<>();
                    all.forEach((k, s) -> keys.add(Views.range(k, s)));
                    spec.commandLine().getOut().println(Json.document(Map.of("ranges", keys)));
                } else {
                    Table t = new Table("KEY", "NEXT", "SEALED");
                    all.forEach((k, s) -> t.row(k, s.next(), s.sealed() ? "sealed" : "no"));
                    t.print(spec.commandLine().getOut());
                }
                return ExitCodes.OK;
            }
        }
    }

    @Command(
            name = "show",
            mixinStandardHelpOptions = true,
            description = "Show one key's next value and state.")
    static final class Show implements Callable<Integer> {
        @Mixin StoreSelection selection;

        @Parameters(paramLabel = "KEY", description = "The range key.")
        String key;

        @Mixin JsonOption output;

        @Spec CommandSpec spec;

        @Override
        public Integer call() {
            try (Store store = selection.open()) {
                Optional<RangeState> state = store.ranges().peek(key);
                if (output.json) {
                    spec.commandLine()
                            .getOut()
                            .println(Json.document(Views.range(key, state.orElse(null))));
                } else if (state.isPresent()) {
                    spec.commandLine()
                            .getOut()
                            .println(
                                    key
                                            + ": next "
                                            + state.get().next()
                                            + (state.get().sealed() ? ", sealed" : ""));
                }
                if (state.isEmpty()) {
                    throw new ExitCodes.Refused(
                            ExitCodes.NOT_FOUND,
                            "range key "
                                    + key
                                    + " is unused: no range was ever acquired (the first would"
                                    + " start at 0)");
                }
                return ExitCodes.OK;
            }
        }
    }

    @Command(
            name = "seal",
            mixinStandardHelpOptions = true,
            description = "Stop a key for good (before migrating it). Needs --yes.")
    static final class Seal implements Callable<Integer> {
        @Mixin StoreSelection selection;

        @Parameters(paramLabel = "KEY", description = "The range key.")
        String key;

        @Option(
                names = "--yes",
                description = "Confirm: no instance will get another range of this key.")
        boolean yes;

        @Option(
                names = "--unused-key",
                description = "Confirm sealing a key that was never used (not a typo).")
        boolean unused;

        @Mixin JsonOption output;

        @Spec CommandSpec spec;

        @Override
        public Integer call() {
            if (!yes) {
                throw new ExitCodes.Refused(
                        ExitCodes.REFUSED,
                        "refused: sealing "
                                + key
                                + " stops every instance that allocates from it, for good; add"
                                + " --yes to confirm");
            }
            try (Store store = selection.openForChange("ranges seal")) {
                Optional<RangeState> before = store.ranges().peek(key);
                if (before.isEmpty() && !unused) {
                    throw unusedKey(key, "seal it at 0");
                }
                boolean already = before.isPresent() && before.get().sealed();
                long next = already ? before.get().next() : store.ranges().seal(key);
                output.print(
                        spec.commandLine().getOut(),
                        key
                                + (already
                                        ? ": already sealed at " + next + " (unchanged)"
                                        : ": sealed at " + next),
                        Map.of("key", key, "next", next, "sealed", true, "changed", !already));
                return ExitCodes.OK;
            }
        }
    }

    @Command(
            name = "advance",
            mixinStandardHelpOptions = true,
            description = "Raise a key's next value (never lowers it). Needs --yes.")
    static final class Advance implements Callable<Integer> {
        @Mixin StoreSelection selection;

        @Parameters(index = "0", paramLabel = "KEY", description = "The range key.")
        String key;

        @Parameters(
                index = "1",
                paramLabel = "VALUE",
                description = "The lowest next value afterwards.")
        long value;

        @Option(names = "--yes", description = "Confirm: values below VALUE are skipped for good.")
        boolean yes;

        @Option(
                names = "--near-end",
                description = "Confirm a VALUE within 2^32 of the largest value (not a typo).")
        boolean nearEnd;

        @Option(
                names = "--unused-key",
                description = "Confirm advancing a key that was never used (not a typo).")
        boolean unused;

        @Mixin JsonOption output;

        /** Values above this leave a key fewer than 2^32 values: a typo more likely than a plan. */
        static final long NEAR_END = Long.MAX_VALUE - (1L << 32);

        @Spec CommandSpec spec;

        @Override
        public Integer call() {
            if (!yes) {
                throw new ExitCodes.Refused(
                        ExitCodes.REFUSED,
                        "refused: advancing "
                                + key
                                + " to "
                                + value
                                + " skips every value below it for good; add --yes to confirm");
            }
            if (value < 0) {
                throw new IllegalArgumentException(
                        "VALUE must be 0 or more, got " + value + "; nothing was written");
            }
            if (value > NEAR_END && !nearEnd) {
                throw new ExitCodes.Refused(
                        ExitCodes.REFUSED,
                        "refused: "
                                + value
                                + " is within 2^32 of the largest value ("
                                + Long.MAX_VALUE
                                + "), which leaves the key almost no values, for good; nothing"
                                + " was written. If that is meant, add --near-end");
            }
            try (Store store = selection.openForChange("ranges advance")) {
                Optional<RangeState> before = store.ranges().peek(key);
                if (before.isEmpty() && !unused) {
                    throw unusedKey(key, "create it at " + value);
                }
                boolean unchanged = before.isPresent() && before.get().next() >= value;
                long next = store.ranges().advance(key, value);
                output.print(
                        spec.commandLine().getOut(),
                        key
                                + ": next "
                                + next
                                + (unchanged
                                        ? " (unchanged: already at or above "
                                                + value
                                                + "; advance never lowers)"
                                        : ""),
                        Map.of("key", key, "next", next, "changed", !unchanged));
                return ExitCodes.OK;
            }
        }
    }
}
