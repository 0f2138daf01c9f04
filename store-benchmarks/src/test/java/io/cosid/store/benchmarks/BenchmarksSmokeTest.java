package io.cosid.store.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * The benchmarks are not part of {@code mvn verify}, but a few seconds of each prove they start,
 * measure and write their outputs. The figures of so short a run mean nothing and are not asserted.
 */
@DisplayName("Benchmark smoke runs")
class BenchmarksSmokeTest {

    @Test
    @DisplayName(
            "the side-by-side harness runs every scenario on a real server, checks for duplicates"
                    + " and writes its table and chart")
    void sideBySide() throws Exception {
        Path out = Path.of("target", "benchmarks-smoke");
        Path results =
                SideBySide.run(
                        SideBySide.Settings.parse(
                                "--seconds",
                                "0.5",
                                "--warmup",
                                "0.2",
                                "--clients",
                                "1,4",
                                "--distances",
                                "1",
                                "--instances",
                                "32",
                                "--held",
                                "40",
                                "--kills",
                                "1",
                                "--out",
                                out.toString()));
        String md = Files.readString(results);
        assertThat(md)
                .contains(
                        "Range acquire, one client",
                        "Contention on one key",
                        "Unequal distances",
                        "Slot leases",
                        "32 instances started together",
                        "CosId SegmentChainId on ZooKeeper",
                        "Bursts: each process takes one segment",
                        "Leader of a 3-node ensemble SIGKILLed 1 times",
                        "In-memory store",
                        "#### Targets");
        assertThat(md).contains("MET  32 instances started together end with distinct slots");
        BufferedImage chart = ImageIO.read(out.resolve("throughput-vs-clients.png").toFile());
        assertThat(chart).isNotNull();
        assertThat(chart.getWidth()).isEqualTo(960);
    }

    @Test
    @DisplayName("the JMH benchmarks run in-process for one short iteration each")
    void jmh() throws Exception {
        Options options =
                new OptionsBuilder()
                        .include(InMemoryBenchmarks.class.getSimpleName())
                        .forks(0)
                        .warmupIterations(0)
                        .measurementIterations(1)
                        .measurementTime(TimeValue.milliseconds(200))
                        .shouldFailOnError(true)
                        .build();
        Collection<RunResult> results = new Runner(options).run();
        // two benchmarks, each without an observer and with a counting one
        assertThat(results).hasSize(4);
        assertThat(results)
                .extracting(r -> r.getParams().getParam("observer"))
                .containsOnly("none", "counting");
        results.forEach(
                r ->
                        assertThat(r.getPrimaryResult().getScore())
                                .as(
                                        r.getParams().getBenchmark()
                                                + " "
                                                + r.getParams().getParam("observer"))
                                .isGreaterThan(0));
    }
}
