package io.cosid.store.cli;

import java.time.Duration;
import java.time.Instant;

/** Times for people: "in 2.1s", "3m 4s ago", relative to the store's clock. */
final class Times {

    private Times() {}

    static String relative(Instant then, Instant now) {
        Duration d = Duration.between(now, then);
        return d.isNegative() ? span(d.negated()) + " ago" : "in " + span(d);
    }

    static String span(Duration d) {
        long ms = d.toMillis();
        if (ms < 10_000) {
            return String.format("%.1fs", ms / 1000.0);
        }
        long s = d.toSeconds();
        if (s < 3600) {
            return (s / 60 > 0 ? s / 60 + "m " : "") + s % 60 + "s";
        }
        if (s < 86_400) {
            return s / 3600 + "h " + (s % 3600) / 60 + "m";
        }
        return s / 86_400 + "d " + (s % 86_400) / 3600 + "h";
    }
}
