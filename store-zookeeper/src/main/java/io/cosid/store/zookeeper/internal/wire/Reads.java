package io.cosid.store.zookeeper.internal.wire;

import io.cosid.store.spi.Deadline;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.ZooKeeper;
import org.jspecify.annotations.Nullable;

/**
 * Requests that change nothing (reads, and the clock write whose only effect is its time), repeated
 * after a connection problem until they get through, the retries run out, or the budget does.
 */
@Singleton
public final class Reads {

    private final RoundTrips roundTrips;
    private final ConnectionRetry retry;
    private final Failures failures;

    @Inject
    Reads(RoundTrips roundTrips, ConnectionRetry retry, Failures failures) {
        this.roundTrips = roundTrips;
        this.retry = retry;
        this.failures = failures;
    }

    /**
     * Sends the requests together until no reply is a connection problem; the replies in the order
     * sent.
     */
    public List<Reply> all(
            Deadline deadline, Function<ZooKeeper, List<CompletableFuture<Reply>>> requests) {
        List<Reply> replies = roundTrips.send(deadline, requests);
        for (int attempt = 0; ; attempt++) {
            Reply lost = connectionProblem(replies);
            if (lost == null) {
                return replies;
            }
            retry.awaitReconnect(deadline, attempt, lost);
            replies = roundTrips.send(deadline, requests);
        }
    }

    /** One request, until its reply is not a connection problem. */
    public Reply one(Deadline deadline, Function<ZooKeeper, CompletableFuture<Reply>> request) {
        return all(deadline, zk -> List.of(request.apply(zk))).get(0);
    }

    /**
     * Every node under {@code root} (not the root itself) that exists when its level is read, with
     * its data, by path: one round trip per level of the tree, all of a level's requests together.
     */
    public Map<String, Reply> tree(Deadline deadline, String root) {
        Map<String, Reply> nodes = new TreeMap<>();
        List<String> level = List.of(root);
        while (!level.isEmpty()) {
            List<String> parents = level;
            List<Reply> children =
                    all(
                            deadline,
                            h -> parents.stream().map(p -> Requests.getChildren(h, p)).toList());
            List<String> next = new ArrayList<>();
            for (int i = 0; i < parents.size(); i++) {
                Reply r = children.get(i);
                String parent = parents.get(i);
                if (r.ok()) {
                    r.children().forEach(c -> next.add(parent + "/" + c));
                } else if (!r.is(Code.NONODE)) {
                    throw failures.unexpected(deadline, r);
                }
            }
            if (!next.isEmpty()) {
                List<Reply> data =
                        all(deadline, h -> next.stream().map(p -> Requests.getData(h, p)).toList());
                for (int i = 0; i < next.size(); i++) {
                    if (data.get(i).ok()) {
                        nodes.put(next.get(i), data.get(i));
                    } else if (!data.get(i).is(Code.NONODE)) {
                        throw failures.unexpected(deadline, data.get(i));
                    }
                }
            }
            level = next;
        }
        return nodes;
    }

    private static @Nullable Reply connectionProblem(List<Reply> replies) {
        for (Reply r : replies) {
            if (r.connectionProblem()) {
                return r;
            }
        }
        return null;
    }
}
