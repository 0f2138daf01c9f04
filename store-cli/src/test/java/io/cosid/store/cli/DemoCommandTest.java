package io.cosid.store.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("cosid-store demo")
class DemoCommandTest {

    @Test
    @DisplayName(
            "runs a fleet on an embedded ZooKeeper: crashes taken over after expiry, restarts, 0"
                    + " duplicates, 0 overlaps")
    void demo() {
        Cli.Result r = Cli.run("demo", "--instances", "4", "--duration", "6s", "--ttl", "1s");
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.out())
                .contains("embedded ZooKeeper on 127.0.0.1:")
                .contains("crashed 1 instance(s) without release")
                .contains("duplicates: 0 (checked over every ID generated)")
                .contains("window overlaps: 0");
        // How many takeovers and give-backs a run shows depends on the scheduler: on a starved
        // machine a healthy instance may miss a renewal and lose its 1 s lease too. What must hold
        // is that the crash led to at least one takeover, each checked by the demo itself (larger
        // fence, floor >= old ceiling).
        assertThat(r.out())
                .containsPattern(
                        "takeovers after expiry \\(larger fence, floor >= old ceiling\\): [1-9]")
                .containsPattern(
                        "restarted instances given their slot back by the owner index: [01] of 1");
        assertThat(r.out()).containsPattern("IDs generated: [0-9,]+ snowflake \\+ [0-9,]+ segment");
        assertThat(r.err()).isEmpty();
    }

    @Test
    @DisplayName("prints its summary as JSON for scripts")
    void json() {
        Cli.Result r =
                Cli.run("demo", "--instances", "2", "--duration", "3s", "--ttl", "500ms", "--json");
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.out().trim())
                .startsWith("{\"instances\":2,")
                .contains("\"duplicates\":0")
                .contains("\"windowOverlaps\":[]")
                .contains("\"errors\":[]")
                .doesNotContain("embedded ZooKeeper");
    }

    @Test
    @DisplayName("refuses options that cannot show a takeover, naming them")
    void badOptions() {
        Cli.Result r = Cli.run("demo", "--duration", "2s", "--ttl", "1s");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("--duration 2s must be at least 6 x --ttl");
        assertThat(Cli.run("demo", "--instances", "1").err())
                .contains("--instances must be from 2 to 1024");
    }
}
