package io.cosid.store.zookeeper.internal.slots;

import static io.cosid.store.StoreArguments.printable;
import static io.cosid.store.StoreArguments.requireNamespace;

import io.cosid.store.Namespace;
import io.cosid.store.NamespaceNotFoundException;
import io.cosid.store.NamespaceSnapshot;
import io.cosid.store.SlotLease;
import io.cosid.store.SlotLeaseStore;
import io.cosid.store.SlotView;
import io.cosid.store.StoreCorruptedException;
import io.cosid.store.StoreObserver.Operation;
import io.cosid.store.spi.Deadline;
import io.cosid.store.spi.OperationNames;
import io.cosid.store.zookeeper.internal.slots.StampedReads.Stamped;
import io.cosid.store.zookeeper.internal.wire.Failures;
import io.cosid.store.zookeeper.internal.wire.NodePaths;
import io.cosid.store.zookeeper.internal.wire.Reply;
import io.cosid.store.zookeeper.internal.wire.StoreLifecycle;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.Op;

/**
 * SlotLeaseStore on {@code {root}/slot} and {@code {root}/owner} (docs/contract.md,
 * "SlotLeaseStore"): the API of the slot room. Where each job is done: {@link Namespaces} (define
 * and read namespaces), {@link SlotAcquire} (an acquire's round trips), {@link SlotChoice} (which
 * free slot it takes), {@link StampedReads} (the first round trip: "now" and the reads behind it),
 * {@link SlotReads} (reading slots and refusing tampered ones) and {@link SlotTerms} (renew,
 * release, advance: writing a term).
 */
@Singleton
public final class ZooKeeperSlotLeaseStore implements SlotLeaseStore {

    private final Failures failures;
    private final NodePaths paths;
    private final StoreLifecycle lifecycle;
    private final Namespaces namespaces;
    private final StampedReads stamped;
    private final SlotReads slotReads;
    private final SlotAcquire acquire;
    private final SlotTerms terms;

    @Inject
    ZooKeeperSlotLeaseStore(
            Failures failures,
            NodePaths paths,
            StoreLifecycle lifecycle,
            Namespaces namespaces,
            StampedReads stamped,
            SlotReads slotReads,
            SlotAcquire acquire,
            SlotTerms terms) {
        this.failures = failures;
        this.paths = paths;
        this.lifecycle = lifecycle;
        this.namespaces = namespaces;
        this.stamped = stamped;
        this.slotReads = slotReads;
        this.acquire = acquire;
        this.terms = terms;
    }

    @Override
    public Namespace define(String namespace, int limit, Duration tolerance) {
        return namespaces.define(namespace, limit, tolerance);
    }

    @Override
    public Optional<Namespace> namespace(String namespace) {
        return namespaces.namespace(namespace);
    }

    @Override
    public List<Namespace> namespaces() {
        return namespaces.namespaces();
    }

    @Override
    public SlotLease acquire(String namespace, String ownerKey, Duration ttl) {
        return acquire.acquire(namespace, ownerKey, ttl);
    }

    @Override
    public SlotLease acquire(String namespace, String ownerKey, Duration ttl, int preferredSlot) {
        return acquire.acquire(namespace, ownerKey, ttl, preferredSlot);
    }

    @Override
    public SlotLease renew(SlotLease lease) {
        return terms.renew(lease);
    }

    @Override
    public Instant release(SlotLease lease) {
        return terms.release(lease);
    }

    @Override
    public Instant release(SlotLease lease, Instant stampedBefore) {
        return terms.release(lease, stampedBefore);
    }

    @Override
    public SlotView advance(String namespace, int slot, long fenceAtLeast, Instant floorAtLeast) {
        return terms.advance(namespace, slot, fenceAtLeast, floorAtLeast);
    }

    @Override
    public NamespaceSnapshot inspect(String namespace) {
        requireNamespace(namespace);
        Deadline deadline =
                lifecycle.start(Operation.SLOT_INSPECT, OperationNames.inspect(namespace));
        // one round trip: clock, namespace and its children together
        Stamped start =
                stamped.send(
                        deadline,
                        namespace,
                        paths.owners(namespace),
                        List.of(Op.getChildren(paths.namespace(namespace))));
        Reply children = start.second();
        if (!children.ok()) {
            throw children.is(Code.NONODE)
                    ? new NamespaceNotFoundException(namespace)
                    : failures.unexpected(deadline, children);
        }
        List<Integer> slots = new ArrayList<>();
        for (String child : children.children()) {
            if (child.equals(NodePaths.CLOCK)) {
                continue;
            }
            try {
                int slot = Integer.parseInt(child);
                if (slot < 0 || !child.equals(Integer.toString(slot))) {
                    throw new NumberFormatException(child);
                }
                slots.add(slot);
            } catch (NumberFormatException e) {
                throw new StoreCorruptedException(
                        "namespace '" + namespace + "' (" + paths.namespace(namespace) + ")",
                        "it has a child node '" + printable(child) + "' that is not a slot number");
            }
        }
        slots.sort(Integer::compare);
        List<SlotView> views = new ArrayList<>();
        slotReads
                .readSlots(deadline, namespace, slots)
                .forEach(
                        (slot, reply) -> {
                            if (reply.ok()) {
                                SlotSeen seen = slotReads.decode(deadline, namespace, slot, reply);
                                views.add(seen.data().view(namespace, slot, seen.mtime()));
                            }
                        });
        return new NamespaceSnapshot(start.namespace(), Instant.ofEpochMilli(start.now()), views);
    }
}
