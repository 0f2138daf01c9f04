package io.cosid.store.zookeeper.internal.slots;

import io.cosid.store.Namespace;
import io.cosid.store.SlotsExhaustedException;
import io.cosid.store.spi.Deadline;
import io.cosid.store.spi.SlotChoiceOrder;
import io.cosid.store.zookeeper.internal.slots.SlotChoice.Choice;
import io.cosid.store.zookeeper.internal.wire.Reply;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * Choosing a slot for an acquire: the contract's choice order (docs/contract.md, "Choice order"),
 * spread over the free slots when attempts are under way ({@link HerdSpread}; store-zookeeper/
 * README.md, "Choice order under concurrency"), reading as few slot batches as that needs.
 */
@Singleton
final class SlotChoice {

    static final int FIRST_BATCH = 32;

    /** The slot an acquire chose, as it was read. */
    record Choice(int slot, SlotSeen seen) {}

    private final SlotReads slotReads;

    @Inject
    SlotChoice(SlotReads slotReads) {
        this.slotReads = slotReads;
    }

    /**
     * The slots read in the acquire's first round trip, behind the clock write: the lowest {@value
     * #FIRST_BATCH} (those inside a limit read before, else the first {@value #FIRST_BATCH}: slots
     * past a limit have no node) and the preferred slot.
     */
    static List<Integer> firstBatch(@Nullable Namespace known, OptionalInt preferred) {
        int size = known == null ? FIRST_BATCH : Math.min(FIRST_BATCH, known.limit());
        Set<Integer> slots = new LinkedHashSet<>();
        for (int s = 0; s < size; s++) {
            slots.add(s);
        }
        preferred.ifPresent(slots::add);
        return List.copyOf(slots);
    }

    /**
     * The contract's choice order: the owner index's slots and the preferred slot (those not read
     * yet in one read-only multi), then the lowest free slot, or with attempts under way (a first
     * attempt's hint, or a lost race) the free slot at {@code position} among the lowest free ones
     * ({@link HerdSpread}): within the first batch if it has that many free, else the first free
     * slot of a window of {@value #FIRST_BATCH} where the position falls, else (the window all
     * taken) the position among the free slots found by reading further batches. A first attempt
     * whose hint names the slot the last landing took ({@code base} is the slot after it) counts
     * its position in slots from {@code base} instead, and takes the first free slot from there.
     * Position 0 (acquires one after another) always scans: the lowest free slot.
     */
    Choice choose(
            Deadline deadline,
            Namespace ns,
            List<Integer> owned,
            OptionalInt preferred,
            long now,
            Map<Integer, Reply> firstRead,
            int position,
            int base,
            int slotNodes) {
        List<Integer> firstChoices = SlotChoiceOrder.firstChoices(ns, owned, preferred);
        Map<Integer, Reply> batch = completeFirstBatch(deadline, ns, firstChoices, firstRead);
        for (int slot : firstChoices) {
            SlotSeen seen = slotReads.decode(deadline, ns.name(), slot, read(batch, slot));
            if (seen.data().isFreeAt(now, seen.mtime())) {
                return new Choice(slot, seen);
            }
        }
        if (base > 0) {
            Optional<Choice> atTarget =
                    fromBase(deadline, ns, batch, (long) base + position, now, slotNodes);
            if (atTarget.isPresent()) {
                return atTarget.get();
            }
            // none there: the positions below, counted from slot 0
        }
        return atPosition(deadline, ns, batch, now, position, slotNodes);
    }

    /**
     * The first batch as read in round trip 1, completed in one more round trip by the first
     * choices not read yet and the slots inside a limit raised since it was sent.
     */
    private Map<Integer, Reply> completeFirstBatch(
            Deadline deadline,
            Namespace ns,
            List<Integer> firstChoices,
            Map<Integer, Reply> firstRead) {
        Map<Integer, Reply> read = new TreeMap<>(firstRead);
        int scanned = Math.min(FIRST_BATCH, ns.limit());
        List<Integer> unread =
                Stream.concat(firstChoices.stream(), IntStream.range(0, scanned).boxed())
                        .distinct()
                        .filter(s -> !read.containsKey(s))
                        .toList();
        if (!unread.isEmpty()) {
            read.putAll(slotReads.readSlots(deadline, ns.name(), unread));
        }
        return read;
    }

    /**
     * A first attempt whose hint names the last landing: the first free slot from {@code target}.
     * The position counts slots, not free ones, from the slot after that landing: the attempts
     * under way since then take the slots right after it, in whatever order they land, so a slot
     * taken there is one of theirs, not a reason to look further.
     */
    private Optional<Choice> fromBase(
            Deadline deadline,
            Namespace ns,
            Map<Integer, Reply> batch,
            long target,
            long now,
            int slotNodes) {
        int scanned = Math.min(FIRST_BATCH, ns.limit());
        if (target < scanned) {
            List<Choice> free = new ArrayList<>();
            collectFree(deadline, ns.name(), batch, (int) target, scanned, now, 1, free);
            return free.isEmpty()
                    ? firstFreeInWindow(deadline, ns, scanned, now)
                    : Optional.of(free.get(0));
        }
        if (target < ns.limit() && target >= slotNodes && !slotReads.saw(ns.name(), (int) target)) {
            // past the first batch, at or past the number of slot nodes: in a herd filling a
            // namespace, a node not created yet. Taken as absent without reading its window;
            // the landing creates it, which fails if the node exists (a lost race), so this is
            // as safe as a read for a slot this store never saw
            return Optional.of(new Choice((int) target, SlotSeen.absent()));
        }
        return firstFreeInWindow(deadline, ns, target, now);
    }

    /**
     * The free slot at {@code position} among the lowest free ones: within the first batch if it
     * has that many free, else the first free slot of the window where the position falls, else the
     * position among the free slots found by reading further batches.
     */
    private Choice atPosition(
            Deadline deadline,
            Namespace ns,
            Map<Integer, Reply> firstBatch,
            long now,
            int position,
            int slotNodes) {
        int wanted = position + 1;
        int scanned = Math.min(FIRST_BATCH, ns.limit());
        List<Choice> free = new ArrayList<>();
        collectFree(deadline, ns.name(), firstBatch, 0, scanned, now, wanted, free);
        if (position > 0 && free.size() < wanted && scanned < ns.limit()) {
            // With attempts under way, past the first batch, read only a window where the position
            // would fall: each of a herd reads one batch, not every slot below its position.
            // Where that is: if at least half the first batch is free, past it at its density of
            // free slots; else past the slot nodes that exist (a herd fills a namespace from slot
            // 0, and a slot never held has no node). Free slots below the window are left to the
            // contenders whose positions point there; the scan below is the fallback when the
            // window has none.
            long ahead = wanted - 1L - free.size();
            long at =
                    free.size() * 2 >= scanned
                            ? scanned + ahead * scanned / free.size()
                            : Math.max(scanned, (long) slotNodes) + ahead;
            Optional<Choice> inWindow = firstFreeInWindow(deadline, ns, at, now);
            if (inWindow.isPresent()) {
                return inWindow.get();
            }
        }
        for (int size = FIRST_BATCH; free.size() < wanted && scanned < ns.limit(); ) {
            int from = scanned;
            size = size < SlotReads.MAX_BATCH ? SlotReads.MAX_BATCH : size * 4;
            scanned = (int) Math.min((long) from + size, ns.limit());
            Map<Integer, Reply> batch =
                    slotReads.readSlots(
                            deadline, ns.name(), IntStream.range(from, scanned).boxed().toList());
            collectFree(deadline, ns.name(), batch, from, scanned, now, wanted, free);
        }
        if (free.isEmpty()) {
            throw new SlotsExhaustedException(ns.name(), ns.limit());
        }
        return free.get(position % free.size());
    }

    /**
     * Reads the {@value #FIRST_BATCH} slots from {@code at} (kept inside the namespace) in one
     * round trip and returns the lowest free one among them, if any.
     */
    private Optional<Choice> firstFreeInWindow(Deadline deadline, Namespace ns, long at, long now) {
        int from = (int) Math.min(at, ns.limit() - 1L);
        int to = (int) Math.min((long) from + FIRST_BATCH, ns.limit());
        Map<Integer, Reply> window =
                slotReads.readSlots(
                        deadline, ns.name(), IntStream.range(from, to).boxed().toList());
        List<Choice> inWindow = new ArrayList<>();
        collectFree(deadline, ns.name(), window, from, to, now, 1, inWindow);
        return inWindow.stream().findFirst();
    }

    /**
     * Adds the free slots among {@code [from, to)} of a batch read, lowest first, until there are
     * {@code wanted}.
     */
    private void collectFree(
            Deadline deadline,
            String ns,
            Map<Integer, Reply> batch,
            int from,
            int to,
            long now,
            int wanted,
            List<Choice> free) {
        for (int slot = from; slot < to && free.size() < wanted; slot++) {
            SlotSeen seen = slotReads.decode(deadline, ns, slot, read(batch, slot));
            if (seen.data().isFreeAt(now, seen.mtime())) {
                free.add(new Choice(slot, seen));
            }
        }
    }

    /** A slot's reply in a batch read; every slot of the batch has one. */
    private static Reply read(Map<Integer, Reply> batch, int slot) {
        Reply reply = batch.get(slot);
        if (reply == null) {
            throw new IllegalStateException("slot " + slot + " was not read");
        }
        return reply;
    }
}
