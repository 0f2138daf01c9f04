package io.cosid.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.cosid.store.Ticker;
import io.cosid.store.spi.Deadline;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import javax.sql.DataSource;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A connection borrowed within the operation's budget from a pool that may wait longer: the caller
 * stops waiting at the budget, and a connection the pool lends after that goes back to it, never
 * leaked; a pool that promises to wait no longer is asked on the caller's own thread.
 */
@DisplayName("Borrowing a connection within the budget")
class BoundedBorrowTest {

    private static final Duration BUDGET = Duration.ofMillis(200);

    /** A pool that lends one connection when {@code lend} opens, and records its close. */
    private static class SlowPool extends ForwardingDataSource {
        final CountDownLatch lend = new CountDownLatch(1);
        final AtomicBoolean closed = new AtomicBoolean();
        final AtomicReference<String> askedOn = new AtomicReference<>();

        @Override
        DataSource target() {
            throw new UnsupportedOperationException("only getConnection is used");
        }

        @Override
        public Connection getConnection() {
            askedOn.set(Thread.currentThread().getName());
            try {
                lend.await(1, TimeUnit.MINUTES);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return (Connection)
                    Proxy.newProxyInstance(
                            Connection.class.getClassLoader(),
                            new Class<?>[] {Connection.class},
                            (proxy, method, args) -> {
                                if (method.getName().equals("close")) {
                                    closed.set(true);
                                }
                                return null;
                            });
        }
    }

    /** The same pool, saying it waits at most 100 ms (HikariCP's getter, read by name). */
    public static final class BoundedPool extends SlowPool {
        /**
         * The pool's connection timeout.
         *
         * @return milliseconds
         */
        public long getConnectionTimeout() {
            return 100;
        }
    }

    @Test
    @DisplayName(
            "a pool that may wait longer: the caller gives up at its budget, and the connection"
                    + " lent afterwards goes back to the pool")
    void lateConnectionGivenBack() {
        SlowPool pool = new SlowPool();
        try (BoundedBorrow borrow = new BoundedBorrow(pool, "main", BUDGET)) {
            Deadline deadline = Deadline.start("range.acquire 'k'", BUDGET, Ticker.system());
            assertThatThrownBy(() -> borrow.borrow(deadline))
                    .isInstanceOf(SQLTransientConnectionException.class)
                    .hasMessageContaining("lent no connection within the store's timeout of 200ms");
            assertThat(pool.askedOn.get()).startsWith("cosid-store-jdbc-borrow-main");
            assertThat(pool.closed).as("nothing lent yet").isFalse();
            pool.lend.countDown();
            await().atMost(Duration.ofSeconds(30)).untilTrue(pool.closed);
        }
    }

    @Test
    @DisplayName("a pool that waits no longer than the budget is asked on the caller's thread")
    void boundedPoolAskedDirectly() throws Exception {
        BoundedPool pool = new BoundedPool();
        pool.lend.countDown();
        try (BoundedBorrow borrow = new BoundedBorrow(pool, "main", BUDGET)) {
            Connection c =
                    borrow.borrow(Deadline.start("range.acquire 'k'", BUDGET, Ticker.system()));
            assertThat(pool.askedOn.get()).isEqualTo(Thread.currentThread().getName());
            c.close();
            assertThat(pool.closed).isTrue();
        }
    }
}
