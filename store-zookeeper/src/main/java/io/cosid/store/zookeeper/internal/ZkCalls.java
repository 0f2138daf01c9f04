package io.cosid.store.zookeeper.internal;

import io.cosid.store.StoreException;
import io.cosid.store.StoreUnavailableException;
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
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.CreateOptions;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;

/**
 * Every request the store sends, on the raw ZooKeeper handle that Curator manages. Requests are asynchronous
 * so that independent ones are pipelined in one round trip (one session, so the server answers them in
 * order); each round trip waits at most the operation's remaining budget. The one exception is the single
 * conditional write of an uncontended range acquire ({@link #setDataNow}), sent synchronously to skip the
 * event-thread hand-off of an asynchronous reply (its cost is measured in docs/performance.md).
 *
 * <p>Curator keeps the connection and the session; this class does the retrying itself, because Curator has
 * no read-only multi and because only the caller of a write knows what an unknown outcome means. Reads are
 * repeated after a connection problem; writes are not: their caller reads back or abandons.
 */
@Singleton
final class ZkCalls {

    /** One reply: the result code and whatever the request returns. */
    record Reply(int rc, String path, byte[] data, Stat stat, List<String> children, List<OpResult> results,
                 List<ACL> acl) {

        Reply(int rc, String path, byte[] data, Stat stat, List<String> children, List<OpResult> results) {
            this(rc, path, data, stat, children, results, null);
        }

        Code code() {
            return Code.get(rc);
        }

        boolean ok() {
            return rc == Code.OK.intValue();
        }

        boolean is(Code c) {
            return rc == c.intValue();
        }

        /**
         * Connection lost, session moved or expired, the server timed out, or (synchronous calls on a client
         * with {@code zookeeper.request.timeout} set) the client did: a write's outcome is unknown.
         */
        boolean connectionProblem() {
            Code c = code();
            return c == Code.CONNECTIONLOSS || c == Code.SESSIONEXPIRED || c == Code.SESSIONMOVED
                    || c == Code.OPERATIONTIMEOUT || c == Code.REQUESTTIMEOUT;
        }
    }

    private final CuratorFramework client;
    private final ZooKeeperOptions options;
    private final LongAdder requests = new LongAdder();
    private final LongAdder roundTrips = new LongAdder();

    @Inject
    ZkCalls(CuratorFramework client, ZooKeeperOptions options) {
        this.client = client;
        this.options = options;
    }

    /** Requests sent so far (for tests and benchmarks: round trips are the cost that matters). */
    long requests() {
        return requests.sum();
    }

    /** Sequential round trips so far: pipelined requests count once. */
    long roundTrips() {
        return roundTrips.sum();
    }

    // ---- single requests, as futures of replies (never failed futures) ----

    static CompletableFuture<Reply> getData(ZooKeeper zk, String path) {
        CompletableFuture<Reply> f = new CompletableFuture<>();
        zk.getData(path, false, (rc, p, ctx, data, stat) -> f.complete(new Reply(rc, p, data, stat, null, null)), null);
        return f;
    }

    static CompletableFuture<Reply> setData(ZooKeeper zk, String path, byte[] data, int version) {
        CompletableFuture<Reply> f = new CompletableFuture<>();
        zk.setData(path, data, version, (rc, p, ctx, stat) -> f.complete(new Reply(rc, p, null, stat, null, null)), null);
        return f;
    }

    static CompletableFuture<Reply> create(ZooKeeper zk, String path, byte[] data, List<ACL> acl) {
        CompletableFuture<Reply> f = new CompletableFuture<>();
        zk.create(path, data, acl, CreateMode.PERSISTENT,
                (rc, p, ctx, name, stat) -> f.complete(new Reply(rc, p, null, stat, null, null)), null);
        return f;
    }

    static CompletableFuture<Reply> getChildren(ZooKeeper zk, String path) {
        CompletableFuture<Reply> f = new CompletableFuture<>();
        zk.getChildren(path, false, (rc, p, ctx, children, stat) ->
                f.complete(new Reply(rc, p, null, stat, children, null)), null);
        return f;
    }

    /**
     * A multi; a failed one's reply names the path of the operation that failed (ZooKeeper's own reply names no
     * path), so that every refusal can say which node it was about.
     */
    static CompletableFuture<Reply> multi(ZooKeeper zk, List<Op> ops) {
        CompletableFuture<Reply> f = new CompletableFuture<>();
        zk.multi(ops, (rc, p, ctx, results) -> f.complete(new Reply(rc, failedPath(rc, ops, results), null, null, null,
                results)), null);
        return f;
    }

    /**
     * The path of the operation a failed multi failed on: the first whose result is an error other than
     * "rolled back because another failed"; for a successful or read-only multi, null.
     */
    static String failedPath(int rc, List<Op> ops, List<OpResult> results) {
        if (rc == Code.OK.intValue() || results == null || results.size() != ops.size()) {
            return null;
        }
        for (int i = 0; i < ops.size(); i++) {
            if (results.get(i) instanceof OpResult.ErrorResult e && e.getErr() != Code.OK.intValue()
                    && e.getErr() != Code.RUNTIMEINCONSISTENCY.intValue()) {
                return ops.get(i).getPath();
            }
        }
        return null;
    }

    static CompletableFuture<Reply> getAcl(ZooKeeper zk, String path) {
        CompletableFuture<Reply> f = new CompletableFuture<>();
        zk.getACL(path, null, (rc, p, ctx, acl, stat) -> f.complete(new Reply(rc, p, null, stat, null, null, acl)), null);
        return f;
    }

    static CompletableFuture<Reply> setAcl(ZooKeeper zk, String path, List<ACL> acl) {
        CompletableFuture<Reply> f = new CompletableFuture<>();
        // any ACL version: this replaces an ACL the operator's check found too open, not a compare-and-set of data
        zk.setACL(path, acl, -1, (rc, p, ctx, stat) -> f.complete(new Reply(rc, p, null, stat, null, null)), null);
        return f;
    }

    /** A create inside a multi that returns the new node's Stat (create2), so its mtime is known. */
    static Op createOp(String path, byte[] data, List<ACL> acl) {
        return Op.create(path, data, CreateOptions.newBuilder(acl, CreateMode.PERSISTENT).build());
    }

    // ---- round trips ----

    /** Sends the requests together and waits for every reply; connection problems are returned, not retried. */
    List<Reply> once(Deadline deadline, Function<ZooKeeper, List<CompletableFuture<Reply>>> send) {
        deadline.check();
        List<CompletableFuture<Reply>> futures = send.apply(handle(deadline));
        requests.add(futures.size());
        roundTrips.increment();
        try {
            // one request (the common case) is waited for directly: no combined future to build
            (futures.size() == 1 ? futures.get(0) : CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)))
                    .get(Math.max(deadline.remainingNanos(), 0), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            throw deadline.expired(null);
        } catch (InterruptedException e) {
            throw deadline.interrupted(e);
        } catch (ExecutionException e) {
            throw new StoreException(deadline.operation() + " failed in the ZooKeeper client", e.getCause());
        }
        List<Reply> replies = new ArrayList<>(futures.size());
        futures.forEach(f -> replies.add(f.join()));
        return replies;
    }

    /** One request, once. */
    Reply once1(Deadline deadline, Function<ZooKeeper, CompletableFuture<Reply>> send) {
        return once(deadline, zk -> List.of(send.apply(zk))).get(0);
    }

    /**
     * One conditional {@code setData}, sent synchronously under the {@link CallWatchdog}: the store's hottest
     * request (an uncontended range acquire) without the event-thread hand-off of an asynchronous reply.
     * Same rules as {@link #once1}: a connection problem is returned, never retried.
     */
    Reply setDataNow(Deadline deadline, String path, byte[] data, int version) {
        deadline.check();
        ZooKeeper zk = handle(deadline);
        requests.increment();
        roundTrips.increment();
        try {
            Stat stat = CallWatchdog.SHARED.run(deadline.remainingNanos(), () -> zk.setData(path, data, version));
            return new Reply(Code.OK.intValue(), path, null, stat, null, null);
        } catch (KeeperException e) {
            return new Reply(e.code().intValue(), path, null, null, null, null);
        } catch (TimeoutException e) {
            throw deadline.expired(null);
        } catch (InterruptedException e) {
            throw deadline.interrupted(e);
        }
    }

    /** Reads, repeated after a connection problem until they get through or the budget runs out. */
    List<Reply> read(Deadline deadline, Function<ZooKeeper, List<CompletableFuture<Reply>>> send) {
        for (int attempt = 0; ; attempt++) {
            List<Reply> replies = once(deadline, send);
            Reply failed = replies.stream().filter(Reply::connectionProblem).findFirst().orElse(null);
            if (failed == null) {
                return replies;
            }
            backOff(deadline, attempt, failed);
        }
    }

    Reply read1(Deadline deadline, Function<ZooKeeper, CompletableFuture<Reply>> send) {
        return read(deadline, zk -> List.of(send.apply(zk))).get(0);
    }

    /**
     * An operation that sent a write whose reply was lost, and cannot tell any more whether it landed: the
     * caller must treat the write as possibly applied (docs/contract.md, "Unknown outcomes").
     */
    StoreUnavailableException outcomeUnknown(Deadline deadline, String found, Throwable cause) {
        return new StoreUnavailableException(options.connectString(), deadline.operation() + ": a write whose reply"
                + " was lost may have landed, and " + found + ", so its outcome is unknown", cause);
    }

    /**
     * Waits before repeating after a connection problem: the retry policy's sleep, then until Curator is
     * connected again, within the budget. Gives up with {@link StoreUnavailableException} after
     * {@code retry.maxRetries} retries.
     */
    void backOff(Deadline deadline, int attempt, Reply failed) {
        if (attempt >= options.retryMaxRetries()) {
            throw new StoreUnavailableException(options.connectString(), deadline.operation() + " lost its connection "
                    + (attempt + 1) + " times (retry.maxRetries=" + options.retryMaxRetries() + ")",
                    KeeperException.create(failed.code(), failed.path()));
        }
        long sleepNanos = Math.min(options.retrySleep(attempt).toNanos(), deadline.remainingNanos());
        try {
            if (sleepNanos > 0) {
                TimeUnit.NANOSECONDS.sleep(sleepNanos);
            }
            long left = deadline.remainingNanos();
            if (left <= 0 || !client.blockUntilConnected((int) Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)),
                    TimeUnit.MILLISECONDS)) {
                throw deadline.expired(KeeperException.create(failed.code(), failed.path()));
            }
        } catch (InterruptedException e) {
            throw deadline.interrupted(e);
        }
    }

    /** Creates a node and the parents it lacks, with empty data; existing nodes are left as they are. */
    void ensurePath(Deadline deadline, String path, List<ACL> acl) {
        for (int attempt = 0; ; attempt++) {
            Reply r = once1(deadline, zk -> create(zk, path, new byte[0], acl));
            if (r.ok() || r.is(Code.NODEEXISTS)) {
                return;
            }
            if (r.is(Code.NONODE)) {
                String parent = NodePaths.parent(path);
                if (parent == null) {
                    throw new StoreException(deadline.operation() + " cannot create " + path + ": the top node is"
                            + " missing (was the connect string's chroot deleted?)");
                }
                ensurePath(deadline, parent, acl);
                attempt--;
            } else if (r.connectionProblem()) {
                backOff(deadline, attempt, r);
            } else {
                throw unexpected(deadline, r);
            }
        }
    }

    /** A reply the caller has no rule for: reported with the path and the code, never ignored. */
    StoreException unexpected(Deadline deadline, Reply reply) {
        KeeperException cause = KeeperException.create(reply.code(), reply.path());
        if (reply.is(Code.NOAUTH) || reply.is(Code.AUTHFAILED)) {
            return new StoreException(deadline.operation() + " was refused by ZooKeeper: not authorized for "
                    + reply.path() + " (check the store's credentials and the nodes' ACLs)", cause);
        }
        return new StoreException(deadline.operation() + " failed: ZooKeeper answered " + reply.code()
                + " for " + reply.path(), cause);
    }

    private ZooKeeper handle(Deadline deadline) {
        if (client.getState() != CuratorFrameworkState.STARTED) {
            throw new IllegalStateException("the CuratorFramework of this store is " + client.getState()
                    + "; cannot " + deadline.operation());
        }
        try {
            return client.getZookeeperClient().getZooKeeper();
        } catch (Exception e) {
            throw new StoreUnavailableException(options.connectString(), "no ZooKeeper connection for "
                    + deadline.operation(), e);
        }
    }
}
