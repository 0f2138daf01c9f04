package io.cosid.store.zookeeper.internal.wire;

import io.cosid.store.StoreUnavailableException;
import io.cosid.store.spi.Deadline;
import io.cosid.store.zookeeper.internal.connect.ZooKeeperOptions;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;

/**
 * The wait before a request that met a connection problem is sent again: the retry policy's sleep,
 * then until Curator is connected again, within the operation's budget, at most {@code
 * retry.maxRetries} times. Only requests that may be repeated come here (reads, and creates that
 * accept an existing node).
 */
@Singleton
final class ConnectionRetry {

    private final CuratorFramework client;
    private final ZooKeeperOptions options;

    @Inject
    ConnectionRetry(CuratorFramework client, ZooKeeperOptions options) {
        this.client = client;
        this.options = options;
    }

    /**
     * Waits before retry number {@code attempt + 1}.
     *
     * @throws StoreUnavailableException when {@code attempt} retries were already made
     * @throws io.cosid.store.StoreTimeoutException when the budget ends before the connection is
     *     back
     */
    void awaitReconnect(Deadline deadline, int attempt, Reply failed) {
        if (attempt >= options.retryMaxRetries()) {
            throw new StoreUnavailableException(
                    options.connectString(),
                    deadline.operation()
                            + " lost its connection "
                            + (attempt + 1)
                            + " times (retry.maxRetries="
                            + options.retryMaxRetries()
                            + ")",
                    KeeperException.create(failed.code(), failed.path()));
        }
        long sleepNanos =
                Math.min(options.retrySleep(attempt).toNanos(), deadline.remainingNanos());
        try {
            if (sleepNanos > 0) {
                TimeUnit.NANOSECONDS.sleep(sleepNanos);
            }
            long left = deadline.remainingNanos();
            if (left <= 0
                    || !client.blockUntilConnected(
                            (int) Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)),
                            TimeUnit.MILLISECONDS)) {
                throw deadline.expired(KeeperException.create(failed.code(), failed.path()));
            }
        } catch (InterruptedException e) {
            throw deadline.interrupted(e);
        }
    }
}
