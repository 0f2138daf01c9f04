package io.cosid.store.zookeeper.internal;

import io.cosid.store.RangeState;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The order of turns in a key's writer line for one <em>epoch</em> (one data version of the line
 * node), as the turn that opened the epoch wrote it into the line node ({@link WriterLine}).
 *
 * <p>Slot 0 is the opening turn itself, by the first seat; slot {@code u} belongs to seat {@code u
 * mod n} and writes the key from data version {@code base + u}, over the value {@code next} plus
 * the sizes of every slot before it. Because everyone in the epoch reads the same schedule, a
 * writer computes its slot's state without reading the key, and its write lands only if the key is
 * at exactly that version, the line still at the epoch, and the seat of the slot before has made
 * exactly the turns the schedule gives it (so a slot that was skipped, or a key written by hand,
 * fails the next write instead of being overwritten).
 *
 * @param base the key's data version before the opening turn
 * @param next the key's value before the opening turn
 * @param czxid the key's node
 * @param seats the seats in turn order, the opener first
 * @param sizes the size each seat writes in every turn
 * @param versions each seat's data version before the opening turn
 */
record TurnSchedule(
        int base, long next, long czxid, List<String> seats, long[] sizes, int[] versions) {

    private static final List<String> FIELDS = List.of("base", "next", "czxid", "seats");

    /** A slot of the schedule: who writes it and over what. */
    record Slot(int index, int seat, int version, long next) {}

    int size() {
        return seats.size();
    }

    int indexOf(String seat) {
        return seats.indexOf(seat);
    }

    /**
     * Slot {@code u}, or null when it cannot be written as a chained turn: its state would
     * overflow, or a version from the base up to it is -1 (ZooKeeper's "any version"; such a write
     * goes through an opening, which reads the key).
     */
    Slot slot(int u) {
        long value = next;
        int version = base;
        for (int w = 0; w < u; w++) {
            long s = sizes[w % seats.size()];
            if (s > Long.MAX_VALUE - value || version == -1) {
                return null;
            }
            value += s;
            version++;
        }
        return version == -1 ? null : new Slot(u, u % seats.size(), version, value);
    }

    /** The first slot after {@code u} that belongs to the same seat. */
    int nextOf(int u) {
        return u + seats.size();
    }

    /** The first slot of {@code seat} after the opening (the opener's first chained slot is n). */
    int firstSlotOf(int seat) {
        return seat == 0 ? seats.size() : seat;
    }

    /** The data version of {@code seat}'s node once it has written every slot before {@code u}. */
    int seatVersionBefore(int seat, int u) {
        int turns = u <= seat ? 0 : (u - seat - 1) / seats.size() + 1;
        return versions[seat] + turns;
    }

    /** The state a turn writes over at slot {@code s}. */
    static RangeState stateAt(Slot s) {
        return new RangeState(s.next(), false);
    }

    /** The line node's data for this schedule. */
    byte[] encode() {
        StringBuilder list = new StringBuilder();
        for (int i = 0; i < seats.size(); i++) {
            if (i > 0) {
                list.append(',');
            }
            list.append(seats.get(i)).append(':').append(versions[i]);
        }
        return Lines.encode(Map.of("base", base, "next", next, "czxid", czxid, "seats", list))
                .getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The schedule in a line node's data; null when the data holds none (written by a join or a
     * leave, or empty).
     *
     * @throws io.cosid.store.StoreCorruptedException when the data is neither empty nor a schedule
     */
    static TurnSchedule decode(String location, byte[] data) {
        if (data == null || data.length == 0) {
            return null;
        }
        Lines lines = Lines.decode(location, data, FIELDS);
        int base = (int) lines.number("base", Integer.MIN_VALUE, Integer.MAX_VALUE);
        long next = lines.number("next", 0, Long.MAX_VALUE);
        long czxid = lines.number("czxid", Long.MIN_VALUE, Long.MAX_VALUE);
        List<String> seats = new ArrayList<>();
        List<Long> sizes = new ArrayList<>();
        List<Integer> versions = new ArrayList<>();
        for (String entry : lines.text("seats").split(",", -1)) {
            int colon = entry.lastIndexOf(':');
            long size = colon < 0 ? -1 : WriterLine.declaredSize(entry.substring(0, colon));
            if (size <= 0) {
                throw lines.corrupt(
                        "seat entry '" + entry + "' is not name:version of a sized seat");
            }
            try {
                versions.add(Integer.parseInt(entry.substring(colon + 1)));
            } catch (NumberFormatException e) {
                throw lines.corrupt("seat entry '" + entry + "' has no whole-number version");
            }
            seats.add(entry.substring(0, colon));
            sizes.add(size);
        }
        return new TurnSchedule(
                base,
                next,
                czxid,
                List.copyOf(seats),
                sizes.stream().mapToLong(Long::longValue).toArray(),
                versions.stream().mapToInt(Integer::intValue).toArray());
    }
}
