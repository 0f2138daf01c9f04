package io.cosid.store.zookeeper.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The arithmetic of the contention rules; their effect on real contention is FairnessTest's. */
@DisplayName("Contention backoff")
class ContentionBackoffTest {

    @Test
    @DisplayName("the window doubles with each consecutive loss and stops at 64 write round trips")
    void windowDoublesThenStops() {
        ContentionBackoff backoff = new ContentionBackoff();
        long rtt = backoff.writeNanos();
        assertThat(backoff.windowNanos(1)).isEqualTo(rtt);
        assertThat(backoff.windowNanos(2)).isEqualTo(2 * rtt);
        assertThat(backoff.windowNanos(7)).isEqualTo(64 * rtt);
        assertThat(backoff.windowNanos(30)).isEqualTo(64 * rtt);
    }

    @Test
    @DisplayName("the window follows the measured write round trip")
    void windowFollowsRoundTrip() {
        ContentionBackoff backoff = new ContentionBackoff();
        for (int i = 0; i < 200; i++) {
            backoff.landed(100_000); // 0.1 ms writes
        }
        assertThat(backoff.writeNanos()).isBetween(100_000L, 110_000L);
        assertThat(backoff.windowNanos(1)).isEqualTo(backoff.writeNanos());
    }

    @Test
    @DisplayName(
            "every contender can tell a turn's last version from the version alone, across the"
                    + " version wrap")
    void gapVersions() {
        assertThat(ContentionBackoff.Turns.gapAfter(8)).isTrue();
        assertThat(ContentionBackoff.Turns.gapAfter(256)).isTrue();
        assertThat(ContentionBackoff.Turns.gapAfter(-8)).isTrue();
        assertThat(ContentionBackoff.Turns.gapAfter(Integer.MIN_VALUE)).isTrue();
        assertThat(ContentionBackoff.Turns.gapAfter(7)).isFalse();
        assertThat(ContentionBackoff.Turns.gapAfter(-7)).isFalse();
    }

    @Test
    @DisplayName("a key counts as contended for a second after it lost a race")
    void hotAfterLoss() {
        ContentionBackoff.Turns turns = new ContentionBackoff().new Turns();
        long now = System.nanoTime();
        assertThat(turns.hot(now)).isFalse();
        turns.lost();
        assertThat(turns.hot(System.nanoTime())).isTrue();
        assertThat(turns.hot(System.nanoTime() + Duration.ofSeconds(2).toNanos())).isFalse();
    }

    @Test
    @DisplayName("a loser's wait never runs past the operation's budget")
    void pauseKeepsToBudget() {
        Deadline spent = Deadline.start("acquire on range key 'k'", Duration.ZERO);
        assertThat(new ContentionBackoff().pause(30, spent)).isZero();
    }
}
