package io.cosid.store.zookeeper.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("WriterLine: seats in order with their sizes, and the wait for the turn before")
class WriterLineTest {

    private static final String LINE = "/cosid/.line/abc";

    @Test
    @DisplayName("seats are ordered by their sequence numbers, sizes read from their names")
    void order() {
        WriterLine.Order order =
                WriterLine.order(
                        LINE,
                        List.of(
                                "w-s5-b-0000000012",
                                "w-s100-a-0000000010",
                                "w-stalled-0000000011",
                                "something-else"));
        assertThat(order.seats())
                .extracting(WriterLine.Seat::name)
                .containsExactly(
                        "w-s100-a-0000000010", "w-stalled-0000000011", "w-s5-b-0000000012");
        assertThat(order.seats()).extracting(WriterLine.Seat::size).containsExactly(100L, -1L, 5L);
        assertThat(order.seats().get(0).path()).isEqualTo(LINE + "/w-s100-a-0000000010");
    }

    @Test
    @DisplayName("a name that declares no whole positive number declares no size")
    void undeclared() {
        assertThat(WriterLine.declaredSize("w-s12-x-0000000001")).isEqualTo(12);
        assertThat(WriterLine.declaredSize("w-1234abcd-0000000001")).isEqualTo(-1);
        assertThat(WriterLine.declaredSize("w-sx-0000000001")).isEqualTo(-1);
        assertThat(WriterLine.declaredSize("w-s")).isEqualTo(-1);
    }

    @Test
    @DisplayName(
            "a wait for the turn before ends as the first watch to fire says, or STILL after its"
                    + " limit")
    void waits() {
        Deadline deadline = Deadline.start("acquire", Duration.ofSeconds(30));
        long limit = TimeUnit.MILLISECONDS.toNanos(50);
        assertThat(
                        WriterLine.await(
                                deadline,
                                CompletableFuture.completedFuture(true),
                                new CompletableFuture<>(),
                                limit))
                .isEqualTo(WriterLine.Wait.MOVED);
        assertThat(
                        WriterLine.await(
                                deadline,
                                CompletableFuture.completedFuture(false),
                                new CompletableFuture<>(),
                                limit))
                .isEqualTo(WriterLine.Wait.GONE);
        assertThat(
                        WriterLine.await(
                                deadline,
                                new CompletableFuture<>(),
                                CompletableFuture.completedFuture(true),
                                limit))
                .isEqualTo(WriterLine.Wait.EPOCH_ENDED);
        assertThat(
                        WriterLine.await(
                                deadline,
                                new CompletableFuture<>(),
                                new CompletableFuture<>(),
                                limit))
                .isEqualTo(WriterLine.Wait.STILL);
    }

    @Test
    @DisplayName("a wait never outlasts the operation's budget")
    void waitsWithinBudget() {
        Deadline spent = Deadline.start("acquire", Duration.ofMillis(1));
        long started = System.nanoTime();
        assertThat(
                        WriterLine.await(
                                spent,
                                new CompletableFuture<>(),
                                new CompletableFuture<>(),
                                TimeUnit.SECONDS.toNanos(30)))
                .isEqualTo(WriterLine.Wait.STILL);
        assertThat(System.nanoTime() - started).isLessThan(TimeUnit.SECONDS.toNanos(10));
    }
}
