package io.cosid.store.zookeeper.internal.slots;

import static io.cosid.store.StoreArguments.printable;

import io.cosid.store.SlotLease;
import io.cosid.store.SlotView;
import io.cosid.store.StoreArguments;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A slot node's data (store-zookeeper/README.md, "Nodes"): {@code name=value} lines. The lease
 * times of a write are not in its data (the data is sent before the server stamps the write's
 * mtime); the data holds their lower bounds, and the times are derived from data and mtime
 * together:
 *
 * <pre>
 * held:      expiresAt = max(expiresMin, mtime + ttl),
 *            ceiling = max(ceilingMin, expiresAt + tolerance),
 *            next floor = max(nextFloor, ceiling)
 * released:  expiresAt = expiresMin, ceiling = ceilingMin (exact, copied at release),
 *            next floor = max(nextFloor, floor),
 *            nextFloor being the release bound written by the release
 * idle:      never held, or advanced:
 *            expiresAt = expiresMin, ceiling = ceilingMin, next floor = nextFloor
 * </pre>
 *
 * The rules match {@code io.cosid.store.spi.SlotState} term for term (docs/contract.md, "Terms and
 * leases").
 */
record SlotData(
        State state,
        String owner,
        String lastOwner,
        long incarnation,
        long fence,
        long ttl,
        long tolerance,
        long floor,
        long expiresMin,
        long ceilingMin,
        long nextFloor,
        String nonce) {

    enum State {
        HELD,
        RELEASED,
        IDLE
    }

    /** A slot whose node does not exist yet. */
    static final SlotData NEVER_HELD =
            new SlotData(State.IDLE, "", "", 0, 0, 0, 0, 0, 0, 0, 0, "none");

    static final List<String> FIELDS =
            List.of(
                    "state",
                    "owner",
                    "lastOwner",
                    "incarnation",
                    "fence",
                    "ttl",
                    "tolerance",
                    "floor",
                    "expiresMin",
                    "ceilingMin",
                    "nextFloor",
                    "nonce");
    private static final Pattern NONCE = Pattern.compile("[A-Za-z0-9-]{1,64}");
    private static final long MAX_TTL = StoreArguments.MAX_TTL.toMillis();
    private static final long MAX_TOLERANCE = StoreArguments.MAX_TOLERANCE.toMillis();

    // ---- derived times ----

    long expiresAt(long mtime) {
        return state == State.HELD ? Math.max(expiresMin, mtime + ttl) : expiresMin;
    }

    long ceiling(long mtime) {
        return state == State.HELD
                ? Math.max(ceilingMin, expiresAt(mtime) + tolerance)
                : ceilingMin;
    }

    long effectiveNextFloor(long mtime) {
        return switch (state) {
            case HELD -> Math.max(nextFloor, ceiling(mtime));
            case RELEASED -> Math.max(nextFloor, floor);
            case IDLE -> nextFloor;
        };
    }

    /** Free at store time {@code now}: no term in force, and a larger fence is still possible. */
    boolean isFreeAt(long now, long mtime) {
        boolean noTerm = state != State.HELD || now >= expiresAt(mtime);
        return noTerm && fence < Long.MAX_VALUE;
    }

    boolean isHeldAt(long now, long mtime) {
        return state == State.HELD && now < expiresAt(mtime);
    }

    boolean isTermOf(SlotLease lease) {
        return fence == lease.fence() && lastOwner.equals(lease.ownerKey());
    }

    // ---- transitions (the data to write; the times follow from the write's mtime) ----

    /**
     * A new term taken from this slot as it was at {@code mtime}, decided at store time {@code now}
     * (the clock write's mtime). {@code now + ttl} is the new term's expiry lower bound: the write
     * that follows may be stamped by another leader whose clock is behind, and the term must still
     * not count as starting before the instant at which the slot was judged free.
     */
    SlotData startTerm(
            long mtime,
            long now,
            String newOwner,
            Duration newTtl,
            Duration newTolerance,
            String newNonce) {
        long newIncarnation = fence > 0 && lastOwner.equals(newOwner) ? incarnation + 1 : 1;
        long newFloor = effectiveNextFloor(mtime);
        return new SlotData(
                State.HELD,
                newOwner,
                newOwner,
                newIncarnation,
                fence + 1,
                newTtl.toMillis(),
                newTolerance.toMillis(),
                newFloor,
                now + newTtl.toMillis(),
                newFloor,
                newFloor,
                newNonce);
    }

    /** The same term extended: this write's times become the lower bounds of the next. */
    SlotData renewed(long mtime, String newNonce) {
        return new SlotData(
                State.HELD,
                owner,
                lastOwner,
                incarnation,
                fence,
                ttl,
                tolerance,
                floor,
                expiresAt(mtime),
                ceiling(mtime),
                nextFloor,
                newNonce);
    }

    /**
     * The term ended by its holder, who declares it stamped nothing at or after {@code
     * stampedBefore} ({@link Long#MAX_VALUE}: declares nothing, the whole window stays used). The
     * release bound {@code max(floor, min(ceiling, stampedBefore))} is written as the next floor;
     * the store's clock plays no part in it (docs/contract.md, "Terms and leases").
     */
    SlotData released(long mtime, String newNonce, long stampedBefore) {
        long ceiling = ceiling(mtime);
        long bound = Math.max(floor, Math.min(ceiling, stampedBefore));
        return new SlotData(
                State.RELEASED,
                "",
                lastOwner,
                incarnation,
                fence,
                ttl,
                tolerance,
                floor,
                expiresAt(mtime),
                ceiling,
                bound,
                newNonce);
    }

    /**
     * Fence and next floor raised; any term this meets is over (advance writes only free slots).
     */
    SlotData advanced(long mtime, long fenceAtLeast, Instant floorAtLeast, String newNonce) {
        return new SlotData(
                State.IDLE,
                "",
                lastOwner,
                incarnation,
                Math.max(fence, fenceAtLeast),
                ttl,
                tolerance,
                floor,
                expiresAt(mtime),
                ceiling(mtime),
                Math.max(effectiveNextFloor(mtime), floorAtLeast.toEpochMilli()),
                newNonce);
    }

    boolean isAtLeast(long mtime, long fenceAtLeast, Instant floorAtLeast) {
        return fence >= fenceAtLeast && effectiveNextFloor(mtime) >= floorAtLeast.toEpochMilli();
    }

    SlotLease lease(String namespace, int slot, long mtime) {
        return new SlotLease(
                namespace,
                slot,
                owner,
                fence,
                incarnation,
                Instant.ofEpochMilli(floor),
                Instant.ofEpochMilli(expiresAt(mtime)),
                Instant.ofEpochMilli(ceiling(mtime)),
                Duration.ofMillis(ttl),
                Duration.ofMillis(tolerance));
    }

    SlotView view(String namespace, int slot, long mtime) {
        // a released term ended at its release write (the node's mtime); a term ended by advance is
        // known only to have ended by its expiry, which operators see as the conservative "free
        // since"
        Instant releasedAt =
                state == State.RELEASED
                        ? Instant.ofEpochMilli(mtime)
                        : state == State.IDLE && !lastOwner.isEmpty()
                                ? Instant.ofEpochMilli(expiresMin)
                                : Instant.EPOCH;
        return new SlotView(
                namespace,
                slot,
                lastOwner,
                fence,
                incarnation,
                Instant.ofEpochMilli(floor),
                Instant.ofEpochMilli(expiresAt(mtime)),
                Instant.ofEpochMilli(ceiling(mtime)),
                Instant.ofEpochMilli(effectiveNextFloor(mtime)),
                state != State.HELD && !lastOwner.isEmpty(),
                releasedAt,
                Duration.ofMillis(ttl));
    }

    // ---- text ----

    byte[] encode() {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("state", state.name().toLowerCase(Locale.ROOT));
        v.put("owner", owner);
        v.put("lastOwner", lastOwner);
        v.put("incarnation", incarnation);
        v.put("fence", fence);
        v.put("ttl", ttl);
        v.put("tolerance", tolerance);
        v.put("floor", floor);
        v.put("expiresMin", expiresMin);
        v.put("ceilingMin", ceilingMin);
        v.put("nextFloor", nextFloor);
        v.put("nonce", nonce);
        return NodeText.encode(v).getBytes(StandardCharsets.UTF_8);
    }

    static SlotData decode(String location, byte[] data) {
        NodeText lines = NodeText.decode(location, data, FIELDS);
        State state =
                switch (lines.text("state")) {
                    case "held" -> State.HELD;
                    case "released" -> State.RELEASED;
                    case "idle" -> State.IDLE;
                    default ->
                            throw lines.corrupt(
                                    "field 'state' = '"
                                            + printable(lines.text("state"))
                                            + "' is not held, released or idle");
                };
        String owner = lines.text("owner");
        String lastOwner = lines.text("lastOwner");
        checkOwner(lines, "lastOwner", lastOwner);
        if (state == State.HELD ? !owner.equals(lastOwner) || owner.isEmpty() : !owner.isEmpty()) {
            throw lines.corrupt(
                    "field 'owner' = '"
                            + printable(owner)
                            + "' does not fit state "
                            + lines.text("state")
                            + " and lastOwner '"
                            + printable(lastOwner)
                            + "'");
        }
        long fence = lines.number("fence", state == State.HELD ? 1 : 0, Long.MAX_VALUE);
        long ttl = lines.number("ttl", state == State.HELD ? 1 : 0, MAX_TTL);
        long floor = lines.number("floor", 0, Long.MAX_VALUE);
        long expiresMin = lines.number("expiresMin", 0, Long.MAX_VALUE);
        long ceilingMin = lines.number("ceilingMin", 0, Long.MAX_VALUE);
        if (state != State.HELD && ceilingMin < expiresMin) {
            throw lines.corrupt("ceilingMin " + ceilingMin + " is below expiresMin " + expiresMin);
        }
        String nonce = lines.text("nonce");
        if (!NONCE.matcher(nonce).matches()) {
            throw lines.corrupt(
                    "field 'nonce' = '"
                            + printable(nonce)
                            + "' is not 1-64 letters, digits or '-'");
        }
        return new SlotData(
                state,
                owner,
                lastOwner,
                lines.number("incarnation", 0, Long.MAX_VALUE),
                fence,
                ttl,
                lines.number("tolerance", 0, MAX_TOLERANCE),
                floor,
                expiresMin,
                ceilingMin,
                lines.number("nextFloor", 0, Long.MAX_VALUE),
                nonce);
    }

    private static void checkOwner(NodeText lines, String field, String value) {
        if (value.isEmpty()) {
            return;
        }
        try {
            StoreArguments.requireOwnerKey(value);
        } catch (IllegalArgumentException e) {
            throw lines.corrupt(
                    "field '" + field + "' is not a valid owner key: " + e.getMessage());
        }
    }
}
