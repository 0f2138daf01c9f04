package io.cosid.store.zookeeper.internal.wire;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.jspecify.annotations.Nullable;

/**
 * The node layout of store-zookeeper/README.md ("Nodes"), under one root:
 *
 * <pre>
 * {root}/range/{key}                 next as decimal text, ":sealed" appended once sealed
 * {root}/slot/{ns}                   limit and tolerance
 * {root}/slot/{ns}/{slot}            the slot as name=value lines
 * {root}/slot/{ns}/.clock            written by each acquire attempt (nothing else): its mtime
 *                                    is "now", its version the attempt's ticket
 * {root}/owner/{ns}                  the landing hint: the ticket of the last acquire attempt
 *                                    that finished, ":" and its slot if it landed ("0" at
 *                                    define, empty: none); inspect and advance stamp "now" on
 *                                    it, clearing it
 * {root}/owner/{ns}/{ownerKey}       the slots last owned by the key
 * {root}/.wrap/{digest}              claims for the one write per 2^32 that must pass
 *                                    data version -1
 * {root}/.line/{digest}              a range key's line of waiting writers: empty, its version
 *                                    bumped by every seat posted (range writes check it)
 * {root}/.line/{digest}/s-{size}-{id}-{seq}
 *                                    a waiting writer's seat (ephemeral, sequential)
 * {root}/.line/{digest}/r-{seat}     the range a write served that seat with, start:end
 *                                    (ephemeral, of the serving session; ranges.Seats)
 * </pre>
 */
public final class NodePaths {

    public static final String CLOCK = ".clock";

    private final String root;
    private final List<ACL> acl;

    public NodePaths(String root) {
        this(root, ZooDefs.Ids.OPEN_ACL_UNSAFE);
    }

    public NodePaths(String root, List<ACL> acl) {
        this.root = root;
        this.acl = acl;
    }

    /** The ACL every node the store creates gets. */
    public List<ACL> acl() {
        return acl;
    }

    public String root() {
        return root;
    }

    /**
     * The names of the nodes a store keeps directly under its root, whatever else is there.
     *
     * @return the names, without the root
     */
    public static Set<String> rootChildren() {
        return Set.of("range", "slot", "owner", ".wrap", ".line");
    }

    public String rangeRoot() {
        return root + "/range";
    }

    public String range(String key) {
        return rangeRoot() + "/" + key;
    }

    public String slotRoot() {
        return root + "/slot";
    }

    public String namespace(String ns) {
        return slotRoot() + "/" + ns;
    }

    public String slot(String ns, int slot) {
        return namespace(ns) + "/" + slot;
    }

    public String clock(String ns) {
        return namespace(ns) + "/" + CLOCK;
    }

    String ownerRoot() {
        return root + "/owner";
    }

    public String owners(String ns) {
        return ownerRoot() + "/" + ns;
    }

    public String owner(String ns, String ownerKey) {
        return owners(ns) + "/" + ownerKey;
    }

    public String wrapRoot() {
        return root + "/.wrap";
    }

    /**
     * The claim node for writing {@code path} while its data version is -1 and its data is {@code
     * data}. Stored data never repeats at a node (counters grow, slot data carries a nonce), so the
     * claim is unique to that state, and only one writer can create it.
     */
    String wrapClaim(String path, byte[] data) {
        return wrapRoot() + "/" + sha256(path.getBytes(StandardCharsets.UTF_8), data);
    }

    String lineRoot() {
        return root + "/.line";
    }

    /**
     * The line of writers of a range key: flat under {@link #lineRoot()}, named by digest, because
     * keys are paths that may have keys below them.
     */
    public String line(String key) {
        return lineRoot() + "/" + sha256(key.getBytes(StandardCharsets.UTF_8));
    }

    private static String sha256(byte[]... parts) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (int i = 0; i < parts.length; i++) {
                if (i > 0) {
                    sha.update((byte) 0);
                }
                sha.update(parts[i]);
            }
            return HexFormat.of().formatHex(sha.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    /** The last name of a path. */
    static String name(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }

    /** The parent of a path under the root, or null for the root itself. */
    static @Nullable String parent(String path) {
        int slash = path.lastIndexOf('/');
        return slash <= 0 ? null : path.substring(0, slash);
    }
}
