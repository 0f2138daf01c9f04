package io.cosid.store.zookeeper.internal.wire;

import io.cosid.store.StoreException;
import io.cosid.store.spi.Deadline;
import io.cosid.store.zookeeper.internal.connect.ZooKeeperOptions;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.ZooDefs.Perms;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.server.auth.DigestAuthenticationProvider;
import org.jspecify.annotations.Nullable;

/**
 * Creator-only ACLs protect a node only as far as its parent does: ZooKeeper lets anyone who may
 * delete children of a parent delete any child, whatever the child's own ACL, and a deleted counter
 * or slot created again restarts from nothing. So with creator ACLs the store checks every parent
 * it relies on and that it did not create itself: the root and its top nodes at open, a namespace's
 * parents and a range key's prefix nodes at first use. A parent that lets another identity delete
 * children (or change its ACL: {@code DELETE} or {@code ADMIN}) is refused, naming the node; with
 * the option {@code acl.fixParents} the store gives it its own ACL instead. Each parent is checked
 * once per store.
 *
 * <p>Whose is an entry: {@code world} and {@code ip} entries are others'; a {@code digest} entry is
 * the store's when it is the digest of the store's own {@code auth.digest}; {@code x509} and {@code
 * sasl} entries cannot be told apart from the store's own (with TLS client certificates the creator
 * ACL admits the certificate's x509 identity) and are taken as the store's.
 */
@Singleton
public final class ParentAcls {

    private static final int DELETE_OR_ADMIN = Perms.DELETE | Perms.ADMIN;

    private final RoundTrips roundTrips;
    private final Reads reads;
    private final Failures failures;
    private final NodePaths paths;
    private final ZooKeeperOptions options;
    private final @Nullable String ownDigest;
    private final Set<String> checked = ConcurrentHashMap.newKeySet();

    @Inject
    ParentAcls(
            RoundTrips roundTrips,
            Reads reads,
            Failures failures,
            NodePaths paths,
            ZooKeeperOptions options) {
        this.roundTrips = roundTrips;
        this.reads = reads;
        this.failures = failures;
        this.paths = paths;
        this.options = options;
        try {
            this.ownDigest =
                    options.authDigest() == null
                            ? null
                            : DigestAuthenticationProvider.generateDigest(options.authDigest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is part of every JDK", e);
        }
    }

    /** At open: the root and the store's top nodes. */
    public void checkTop(Deadline deadline) {
        check(
                deadline,
                List.of(
                        paths.root(),
                        paths.rangeRoot(),
                        paths.slotRoot(),
                        paths.ownerRoot(),
                        paths.wrapRoot()));
    }

    /** At a namespace's first use: the parents of its slots and of its owner indexes. */
    public void checkNamespace(Deadline deadline, String ns) {
        check(deadline, List.of(paths.namespace(ns), paths.owners(ns)));
    }

    /** At a range key's first use: the prefix nodes between the range root and the key's node. */
    public void checkRangeKey(Deadline deadline, String key) {
        List<String> prefixes = new ArrayList<>();
        for (int slash = key.indexOf('/'); slash > 0; slash = key.indexOf('/', slash + 1)) {
            prefixes.add(paths.range(key.substring(0, slash)));
        }
        check(deadline, prefixes);
    }

    private void check(Deadline deadline, List<String> nodes) {
        if (!options.creatorAcl()) {
            return; // open ACLs: every node is everyone's by the operator's choice
        }
        List<String> todo = nodes.stream().filter(n -> !checked.contains(n)).toList();
        if (todo.isEmpty()) {
            return;
        }
        List<Reply> replies =
                reads.all(deadline, h -> todo.stream().map(n -> Requests.getAcl(h, n)).toList());
        for (int i = 0; i < todo.size(); i++) {
            String node = todo.get(i);
            Reply r = replies.get(i);
            if (r.is(Code.NONODE)) {
                continue; // the store creates it with its own ACL; checked when it is there
            }
            if (!r.ok()) {
                throw failures.unexpected(deadline, r);
            }
            List<ACL> others =
                    r.acl().stream()
                            .filter(a -> (a.getPerms() & DELETE_OR_ADMIN) != 0 && !own(a))
                            .toList();
            if (!others.isEmpty()) {
                if (!options.fixParentAcls()) {
                    throw new StoreException(
                            deadline.operation()
                                    + ": the parent node "
                                    + node
                                    + " lets others"
                                    + " delete the store's nodes under it ("
                                    + describe(others)
                                    + "), and a counter or slot deleted and created again restarts"
                                    + " from nothing. Give it the store's own ACL (zkCli,"
                                    + " authenticated as the store: setAcl "
                                    + node
                                    + " auth::cdrwa), or set the option "
                                    + ZooKeeperOptions.ACL_FIX_PARENTS
                                    + "=true to let the store do it");
                }
                Reply fixed =
                        roundTrips.sendOne(deadline, h -> Requests.setAcl(h, node, paths.acl()));
                if (!fixed.ok()) {
                    throw failures.unexpected(deadline, fixed);
                }
            }
            checked.add(node);
        }
    }

    private boolean own(ACL entry) {
        return switch (entry.getId().getScheme()) {
            case "world", "ip" -> false;
            case "digest" -> ownDigest == null || ownDigest.equals(entry.getId().getId());
            default -> true;
        };
    }

    private static String describe(List<ACL> entries) {
        return entries.stream()
                .map(
                        a ->
                                a.getId().getScheme()
                                        + ":"
                                        + a.getId().getId()
                                        + " with permissions "
                                        + perms(a.getPerms()))
                .reduce((a, b) -> a + "; " + b)
                .orElse("");
    }

    private static String perms(int p) {
        return ((p & Perms.CREATE) != 0 ? "c" : "")
                + ((p & Perms.DELETE) != 0 ? "d" : "")
                + ((p & Perms.READ) != 0 ? "r" : "")
                + ((p & Perms.WRITE) != 0 ? "w" : "")
                + ((p & Perms.ADMIN) != 0 ? "a" : "");
    }
}
