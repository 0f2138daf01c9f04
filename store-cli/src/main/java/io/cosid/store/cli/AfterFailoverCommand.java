package io.cosid.store.cli;

import io.cosid.store.StoreConfig;
import io.cosid.store.jdbc.AfterFailover;
import java.io.PrintWriter;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code after-failover}: moves a JDBC store's keys and slots past a failover or restore that may
 * have lost acknowledged writes, which stores refuse until then.
 */
@Command(
        name = "after-failover",
        mixinStandardHelpOptions = true,
        description = {
            "After a failover or restore that may have lost acknowledged writes (JDBC stores):"
                    + " raise every key and slot last written before it past the loss, so that"
                    + " stores accept them again. Try --dry-run first.",
            "Keys: next raised by --margin (sealed keys keep theirs). Slots: fence raised by"
                    + " --margin, next windows from --slots-from on, any term ended."
        })
final class AfterFailoverCommand implements Callable<Integer> {

    @Mixin StoreSelection selection;

    @Option(
            names = "--margin",
            required = true,
            paramLabel = "N",
            description =
                    "How far to raise each key's next value and each slot's fence: at least what"
                            + " the fleet may have handed out in the writes that were lost.")
    long margin;

    @Option(
            names = "--slots-from",
            paramLabel = "INSTANT",
            description =
                    "Where slots' next windows start, e.g. 2026-12-07T20:00:00Z: at or after the"
                            + " old server's last moment plus the longest ttl and tolerance."
                            + " Required when slots need moving (the dry run says).")
    @Nullable String slotsFrom;

    @Option(names = "--dry-run", description = "Show what would move; change nothing.")
    boolean dryRun;

    @Mixin JsonOption output;

    @Spec CommandSpec spec;

    @Override
    public Integer call() {
        StoreConfig config = StoreSelection.requireLasting(selection.config(), "after-failover");
        if (!config.type().equals("jdbc")) {
            throw new ExitCodes.Refused(
                    ExitCodes.REFUSED,
                    "after-failover is for JDBC stores; store "
                            + config.name()
                            + " is of type "
                            + config.type()
                            + ", whose writes are not lost by a failover (a ZooKeeper write is"
                            + " acknowledged by a quorum)");
        }
        Instant from = slotsFrom == null ? null : instant(slotsFrom);
        AfterFailover.Report report = AfterFailover.run(config, margin, from, dryRun);
        PrintWriter out = spec.commandLine().getOut();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("origin", report.origin());
        body.put("applied", report.applied());
        body.put("keys", report.keys());
        body.put("slots", report.slots());
        if (report.highestCeiling() != null) {
            body.put("highestCeiling", report.highestCeiling().toString());
        }
        output.print(out, lines(report), body);
        return ExitCodes.OK;
    }

    private String lines(AfterFailover.Report report) {
        StringBuilder text = new StringBuilder();
        int moved = report.keys().size() + report.slots().size();
        if (moved == 0) {
            return "nothing to move: every key and slot was written under "
                    + report.origin()
                    + " or with synchronous replication";
        }
        text.append(report.applied() ? "moved " : "would move (dry run, nothing changed) ")
                .append(report.keys().size())
                .append(" key(s) and ")
                .append(report.slots().size())
                .append(" slot(s); rows are written under ")
                .append(report.origin())
                .append(" now");
        report.keys().forEach(k -> text.append(System.lineSeparator()).append("  ").append(k));
        report.slots().forEach(s -> text.append(System.lineSeparator()).append("  ").append(s));
        if (!report.slots().isEmpty()) {
            text.append(System.lineSeparator())
                    .append("highest ceiling the slots' rows show: ")
                    .append(report.highestCeiling())
                    .append(
                            slotsFrom == null
                                    ? " (a lost term's may be later; --slots-from is needed to"
                                            + " apply)"
                                    : "");
        }
        return text.toString();
    }

    private static Instant instant(String text) {
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(
                    "--slots-from must be an instant such as 2026-12-07T20:00:00Z, got " + text, e);
        }
    }
}
