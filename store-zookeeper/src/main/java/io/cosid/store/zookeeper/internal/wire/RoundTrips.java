package io.cosid.store.zookeeper.internal.wire;

import io.cosid.store.StoreException;
import io.cosid.store.StoreUnavailableException;
import io.cosid.store.spi.Deadline;
import io.cosid.store.zookeeper.internal.connect.ZooKeeperOptions;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.imps.CuratorFrameworkState;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

/**
 * The transport: sends requests on the raw ZooKeeper handle that Curator manages and waits for
 * their replies within the operation's budget. Requests sent together are pipelined in one round
 * trip (one session, so the server answers them in order). A connection problem is returned as a
 * reply, never retried here: reads are repeated by {@link Reads}, and only the caller of a write
 * knows what its unknown outcome means.
 *
 * <p>The one synchronous request is a single conditional {@code setData} ({@link #setDataNow}): it
 * skips the event-thread hand-off of an asynchronous reply (its cost is measured in
 * docs/performance.md).
 */
@Singleton
public final class RoundTrips {

    private final CuratorFramework client;
    private final ZooKeeperOptions options;
    private final CallWatchdog watchdog;
    private final LongAdder requests = new LongAdder();
    private final LongAdder roundTrips = new LongAdder();

    @Inject
    RoundTrips(CuratorFramework client, ZooKeeperOptions options, CallWatchdog watchdog) {
        this.client = client;
        this.options = options;
        this.watchdog = watchdog;
    }

    /** Requests sent so far (for tests and benchmarks: round trips are the cost that matters). */
    public long requests() {
        return requests.sum();
    }

    /** Sequential round trips so far: pipelined requests count once. */
    public long roundTrips() {
        return roundTrips.sum();
    }

    /** Sends the requests together and waits for every reply, in the order sent. */
    public List<Reply> send(
            Deadline deadline, Function<ZooKeeper, List<CompletableFuture<Reply>>> requests) {
        deadline.check();
        List<CompletableFuture<Reply>> futures = requests.apply(handle(deadline));
        this.requests.add(futures.size());
        roundTrips.increment();
        try {
            // one request (the common case) is waited for directly: no combined future to build
            (futures.size() == 1
                            ? futures.get(0)
                            : CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)))
                    .get(Math.max(deadline.remainingNanos(), 0), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            throw deadline.expired(null);
        } catch (InterruptedException e) {
            throw deadline.interrupted(e);
        } catch (ExecutionException e) {
            throw new StoreException(
                    deadline.operation() + " failed in the ZooKeeper client", e.getCause());
        }
        List<Reply> replies = new ArrayList<>(futures.size());
        futures.forEach(f -> replies.add(f.join()));
        return replies;
    }

    /** One request. */
    public Reply sendOne(Deadline deadline, Function<ZooKeeper, CompletableFuture<Reply>> request) {
        return send(deadline, zk -> List.of(request.apply(zk))).get(0);
    }

    /**
     * One conditional {@code setData}, sent synchronously under the {@link CallWatchdog}, without
     * the event-thread hand-off of an asynchronous reply.
     */
    Reply setDataNow(Deadline deadline, String path, byte[] data, int version) {
        deadline.check();
        ZooKeeper zk = handle(deadline);
        requests.increment();
        roundTrips.increment();
        try {
            Stat stat =
                    watchdog.run(deadline.remainingNanos(), () -> zk.setData(path, data, version));
            return Reply.write(Code.OK.intValue(), path, stat);
        } catch (KeeperException e) {
            return Reply.of(e.code(), path);
        } catch (TimeoutException e) {
            throw deadline.expired(null);
        } catch (InterruptedException e) {
            throw deadline.interrupted(e);
        }
    }

    /**
     * One multi, sent synchronously under the {@link CallWatchdog} like {@link #setDataNow}; a
     * failed one's reply names the operation that failed.
     */
    Reply multiNow(Deadline deadline, List<Op> ops) {
        deadline.check();
        ZooKeeper zk = handle(deadline);
        requests.increment();
        roundTrips.increment();
        try {
            List<OpResult> results = watchdog.run(deadline.remainingNanos(), () -> zk.multi(ops));
            return Reply.multi(Code.OK.intValue(), null, results);
        } catch (KeeperException e) {
            List<OpResult> results = e.getResults();
            return Reply.multi(
                    e.code().intValue(),
                    results == null
                            ? e.getPath()
                            : Requests.failedPath(e.code().intValue(), ops, results),
                    results);
        } catch (TimeoutException e) {
            throw deadline.expired(null);
        } catch (InterruptedException e) {
            throw deadline.interrupted(e);
        }
    }

    /**
     * Sends a request whose reply nobody waits for (a clean-up that may fail: whoever needs the
     * node gone checks for it). Counted as a request, not as a round trip.
     */
    public void sendAndForget(Function<ZooKeeper, CompletableFuture<Reply>> request) {
        try {
            var unused = request.apply(client.getZookeeperClient().getZooKeeper());
            requests.increment();
        } catch (Exception e) {
            // no connection: the node is ephemeral, and whoever waits behind it checks for it
        }
    }

    private ZooKeeper handle(Deadline deadline) {
        if (client.getState() != CuratorFrameworkState.STARTED) {
            throw new IllegalStateException(
                    "the CuratorFramework of this store is "
                            + client.getState()
                            + "; cannot "
                            + deadline.operation());
        }
        try {
            return client.getZookeeperClient().getZooKeeper();
        } catch (Exception e) {
            throw new StoreUnavailableException(
                    options.connectString(),
                    "no ZooKeeper connection for " + deadline.operation(),
                    e);
        }
    }
}
