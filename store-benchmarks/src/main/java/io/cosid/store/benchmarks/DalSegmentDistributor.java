package io.cosid.store.benchmarks;

import java.util.concurrent.TimeUnit;
import me.ahoo.cosid.CosIdException;
import me.ahoo.cosid.segment.IdSegmentDistributor;
import org.apache.curator.RetryPolicy;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.atomic.AtomicValue;
import org.apache.curator.framework.recipes.atomic.DistributedAtomicLong;
import org.apache.curator.framework.recipes.atomic.PromotedToLock;

/**
 * A segment distributor written the way CosId's own ZooKeeper one is ({@code
 * ZookeeperIdSegmentDistributor}): a Curator {@code DistributedAtomicLong} at {@code
 * /cosid/{namespace}.{name}}, promoted to a lock at {@code {path}-locker} after its optimistic
 * tries, initialized to the offset; {@code nextMaxId(step)} is one {@code add(step)}, and a give-up
 * is an exception. The reference of the CosId benchmark.
 */
final class DalSegmentDistributor implements IdSegmentDistributor {

    private final String namespace;
    private final String name;
    private final long step;
    private final DistributedAtomicLong counter;

    DalSegmentDistributor(
            CuratorFramework client,
            RetryPolicy retry,
            String namespace,
            String name,
            long offset,
            long step)
            throws Exception {
        this.namespace = namespace;
        this.name = name;
        this.step = step;
        String path = "/cosid/" + namespace + "." + name;
        this.counter =
                new DistributedAtomicLong(
                        client,
                        path,
                        retry,
                        PromotedToLock.builder()
                                .lockPath(path + "-locker")
                                .timeout(15, TimeUnit.SECONDS)
                                .retryPolicy(retry)
                                .build());
        counter.initialize(offset);
    }

    @Override
    public String getNamespace() {
        return namespace;
    }

    @Override
    public String getName() {
        return name;
    }

    @Override
    public long getStep() {
        return step;
    }

    @Override
    public long nextMaxId(long step) {
        AtomicValue<Long> next;
        try {
            next = counter.add(step);
        } catch (Exception e) {
            throw new CosIdException(e.getMessage(), e);
        }
        if (!next.succeeded()) {
            throw new CosIdException(
                    "nextMaxId of " + getNamespacedName() + ": concurrency conflict, gave up");
        }
        return next.postValue();
    }
}
