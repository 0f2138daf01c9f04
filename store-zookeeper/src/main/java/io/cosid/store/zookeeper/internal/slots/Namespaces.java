package io.cosid.store.zookeeper.internal.slots;

import static io.cosid.store.StoreArguments.requireLimit;
import static io.cosid.store.StoreArguments.requireNamespace;
import static io.cosid.store.StoreArguments.requireTolerance;

import io.cosid.store.Namespace;
import io.cosid.store.NamespaceNotFoundException;
import io.cosid.store.StoreObserver.Operation;
import io.cosid.store.spi.Deadline;
import io.cosid.store.spi.NamespaceRules;
import io.cosid.store.spi.OperationNames;
import io.cosid.store.zookeeper.internal.wire.ConditionalWrite;
import io.cosid.store.zookeeper.internal.wire.Failures;
import io.cosid.store.zookeeper.internal.wire.NodeChange;
import io.cosid.store.zookeeper.internal.wire.NodePaths;
import io.cosid.store.zookeeper.internal.wire.ParentAcls;
import io.cosid.store.zookeeper.internal.wire.PathCreator;
import io.cosid.store.zookeeper.internal.wire.Reads;
import io.cosid.store.zookeeper.internal.wire.Reply;
import io.cosid.store.zookeeper.internal.wire.Requests;
import io.cosid.store.zookeeper.internal.wire.RoundTrips;
import io.cosid.store.zookeeper.internal.wire.StoreLifecycle;
import io.cosid.store.zookeeper.internal.wire.WriteOutcome;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.zookeeper.KeeperException.Code;
import org.jspecify.annotations.Nullable;

/**
 * The namespaces of the slot store: defining one (its node, its clock node, the parent of its owner
 * indexes), reading them, and each namespace as last read with the largest limit seen (a limit is
 * only ever raised).
 */
@Singleton
final class Namespaces {

    private final RoundTrips roundTrips;
    private final Reads reads;
    private final ConditionalWrite conditionalWrite;
    private final PathCreator pathCreator;
    private final Failures failures;
    private final NodePaths paths;
    private final StoreLifecycle lifecycle;
    private final ParentAcls parentAcls;

    /** Each namespace as last read, with the largest limit seen (a limit is only ever raised). */
    private final Map<String, Namespace> namespaces = new ConcurrentHashMap<>();

    @Inject
    Namespaces(
            RoundTrips roundTrips,
            Reads reads,
            ConditionalWrite conditionalWrite,
            PathCreator pathCreator,
            Failures failures,
            NodePaths paths,
            StoreLifecycle lifecycle,
            ParentAcls parentAcls) {
        this.roundTrips = roundTrips;
        this.reads = reads;
        this.conditionalWrite = conditionalWrite;
        this.pathCreator = pathCreator;
        this.failures = failures;
        this.paths = paths;
        this.lifecycle = lifecycle;
        this.parentAcls = parentAcls;
    }

    Namespace define(String namespace, int limit, Duration tolerance) {
        requireNamespace(namespace);
        requireLimit(limit);
        requireTolerance(tolerance);
        Namespace requested = new Namespace(namespace, limit, tolerance);
        Deadline deadline =
                lifecycle.start(Operation.NAMESPACE_DEFINE, OperationNames.define(namespace));
        parentAcls.checkNamespace(deadline, namespace);
        String path = paths.namespace(namespace);
        String location = "namespace '" + namespace + "' (" + path + ")";
        byte[] data = NamespaceCodec.encode(requested);
        while (deadline.hasTimeLeft()) {
            Reply r = reads.one(deadline, h -> Requests.getData(h, path));
            WriteOutcome w;
            if (r.is(Code.NONODE)) {
                w =
                        conditionalWrite.send(
                                deadline,
                                location,
                                NodeChange.create(path, data),
                                NodeChange.create(paths.clock(namespace), new byte[0]));
            } else if (r.ok()) {
                Namespace current = NamespaceCodec.decode(namespace, path, r.data());
                if (!NamespaceRules.redefines(current, requested)) {
                    ensureBookkeeping(deadline, namespace);
                    return current;
                }
                w =
                        conditionalWrite.send(
                                deadline,
                                location,
                                NodeChange.replace(path, r.stat().getVersion(), r.data(), data));
            } else {
                throw failures.unexpected(deadline, r);
            }
            switch (w.kind()) {
                case LANDED -> {
                    ensureBookkeeping(deadline, namespace);
                    return requested;
                }
                case PARENT_MISSING -> {
                    if (w.missingParent().equals(paths.slotRoot())) {
                        pathCreator.ensure(deadline, paths.slotRoot());
                    } else {
                        createMissingBookkeeping(deadline, w.missingParent(), namespace);
                    }
                }
                case LOST_RACE, UNKNOWN, NODE_GONE, NOT_ALLOWED -> {
                    // read again: what is stored now decides (an unknown write that landed reads as
                    // defined)
                }
            }
        }
        throw deadline.expired(null);
    }

    /**
     * Creates what a defined namespace needs besides its node, if missing: the parent of its owner
     * indexes (holding the landing hint), and its clock node (content: nothing but its modification
     * time). Defining a namespace again is thereby the repair of a clock node deleted by hand. One
     * round trip when both exist.
     */
    private void ensureBookkeeping(Deadline deadline, String ns) {
        List<Reply> replies =
                roundTrips.send(
                        deadline,
                        h ->
                                List.of(
                                        // the landing hint starts at the clock's first version,
                                        // so that a herd on a new namespace spreads at once
                                        Requests.create(
                                                h,
                                                paths.owners(ns),
                                                HerdSpread.hint(0),
                                                paths.acl()),
                                        Requests.create(
                                                h, paths.clock(ns), new byte[0], paths.acl())));
        Reply owners = replies.get(0);
        if (owners.is(Code.NONODE) || owners.connectionProblem()) {
            pathCreator.ensure(deadline, paths.owners(ns), HerdSpread.hint(0));
        } else if (!owners.ok() && !owners.is(Code.NODEEXISTS)) {
            throw failures.unexpected(deadline, owners);
        }
        Reply clock = replies.get(1);
        if (clock.connectionProblem()) {
            pathCreator.ensure(deadline, paths.clock(ns));
        } else if (!clock.ok() && !clock.is(Code.NODEEXISTS) && !clock.is(Code.NONODE)) {
            throw failures.unexpected(deadline, clock);
        }
    }

    /**
     * After a write found a parent missing: creates it when it is the store's own bookkeeping (the
     * claim root, the namespace's owner indexes). A missing slot or namespace node is never created
     * here: the next read reports it (a slot deleted behind the store's back, a namespace never
     * defined).
     */
    void createMissingBookkeeping(Deadline deadline, String parent, String ns) {
        if (parent.equals(paths.wrapRoot()) || parent.equals(paths.owners(ns))) {
            pathCreator.ensure(deadline, parent);
        }
    }

    Optional<Namespace> namespace(String namespace) {
        requireNamespace(namespace);
        Deadline deadline =
                lifecycle.start(Operation.NAMESPACE_GET, OperationNames.readNamespace(namespace));
        String path = paths.namespace(namespace);
        Reply r = reads.one(deadline, h -> Requests.getData(h, path));
        if (r.is(Code.NONODE)) {
            return Optional.empty();
        }
        if (!r.ok()) {
            throw failures.unexpected(deadline, r);
        }
        return Optional.of(NamespaceCodec.decode(namespace, path, r.data()));
    }

    List<Namespace> namespaces() {
        Deadline deadline =
                lifecycle.start(Operation.NAMESPACE_LIST, OperationNames.listNamespaces());
        Reply children = reads.one(deadline, h -> Requests.getChildren(h, paths.slotRoot()));
        if (children.is(Code.NONODE)) {
            return List.of();
        }
        if (!children.ok()) {
            throw failures.unexpected(deadline, children);
        }
        List<String> names = children.children().stream().sorted().toList();
        List<Reply> data =
                reads.all(
                        deadline,
                        h ->
                                names.stream()
                                        .map(n -> Requests.getData(h, paths.namespace(n)))
                                        .toList());
        List<Namespace> result = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            if (data.get(i).ok()) {
                result.add(
                        NamespaceCodec.decode(
                                names.get(i), paths.namespace(names.get(i)), data.get(i).data()));
            }
        }
        return List.copyOf(result);
    }

    /**
     * The namespace as this store knows it, read only when the known one does not hold {@code
     * slot}: a limit is never lowered, so a slot inside a limit seen once stays inside. A read,
     * never a write.
     */
    Namespace namespaceWith(Deadline deadline, String ns, int slot) {
        Namespace known = namespaces.get(ns);
        if (known != null && known.contains(slot)) {
            return known;
        }
        String path = paths.namespace(ns);
        Reply r = reads.one(deadline, h -> Requests.getData(h, path));
        if (r.is(Code.NONODE)) {
            throw new NamespaceNotFoundException(ns);
        }
        if (!r.ok()) {
            throw failures.unexpected(deadline, r);
        }
        return known(NamespaceCodec.decode(ns, path, r.data()));
    }

    /** Remembers a namespace as read, keeping the largest limit seen. */
    Namespace known(Namespace namespace) {
        namespaces.merge(namespace.name(), namespace, (a, b) -> a.limit() >= b.limit() ? a : b);
        return namespace;
    }

    /** The namespace as last read, if this store read it. */
    @Nullable Namespace lastRead(String ns) {
        return namespaces.get(ns);
    }
}
