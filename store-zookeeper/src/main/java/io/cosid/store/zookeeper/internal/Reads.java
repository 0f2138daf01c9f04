package io.cosid.store.zookeeper.internal;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.apache.zookeeper.ZooKeeper;

/**
 * Requests that change nothing (reads, and the clock write whose only effect is its time), repeated
 * after a connection problem until they get through, the retries run out, or the budget does.
 */
@Singleton
final class Reads {

    private final RoundTrips roundTrips;
    private final ConnectionRetry retry;

    @Inject
    Reads(RoundTrips roundTrips, ConnectionRetry retry) {
        this.roundTrips = roundTrips;
        this.retry = retry;
    }

    /**
     * Sends the requests together until no reply is a connection problem; the replies in the order
     * sent.
     */
    List<Reply> all(
            Deadline deadline, Function<ZooKeeper, List<CompletableFuture<Reply>>> requests) {
        List<Reply> replies = roundTrips.send(deadline, requests);
        for (int attempt = 0; connectionProblem(replies) != null; attempt++) {
            retry.awaitReconnect(deadline, attempt, connectionProblem(replies));
            replies = roundTrips.send(deadline, requests);
        }
        return replies;
    }

    /** One request, until its reply is not a connection problem. */
    Reply one(Deadline deadline, Function<ZooKeeper, CompletableFuture<Reply>> request) {
        return all(deadline, zk -> List.of(request.apply(zk))).get(0);
    }

    private static Reply connectionProblem(List<Reply> replies) {
        for (Reply r : replies) {
            if (r.connectionProblem()) {
                return r;
            }
        }
        return null;
    }
}
