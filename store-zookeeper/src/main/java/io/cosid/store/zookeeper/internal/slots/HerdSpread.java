package io.cosid.store.zookeeper.internal.slots;

import java.nio.charset.StandardCharsets;
import java.util.OptionalInt;
import org.jspecify.annotations.Nullable;

/**
 * Where among the lowest free slots an acquire that lost a race tries next (store-zookeeper/
 * README.md, "Choice order under concurrency").
 *
 * <p>Every attempt of an acquire writes the namespace's clock node, and the version that write
 * gives the node is the attempt's <em>ticket</em>: contenders get distinct, consecutive tickets.
 * Between two attempts of one acquire, each other contender writes the clock about once, so the
 * tickets that passed in between estimate how many are contending. The next attempt takes the free
 * slot at its ticket modulo that estimate rounded up to a power of two (rounded so that contenders
 * whose estimates differ a little still use one modulus, under which consecutive tickets point at
 * distinct slots). A herd of n instances starting together thus spreads after its first lost race
 * (all want the lowest slot, one wins) over the lowest n free slots or so, instead of fighting for
 * one slot per round; two contenders spread over the lowest two.
 *
 * <p>A first attempt has no tickets of its own to compare, so it compares its ticket with the
 * namespace's <em>landing hint</em>: the ticket of the last attempt that finished, which every
 * landing acquire writes in its multi with the slot it took ({@link #firstPosition}). When the hint
 * names that slot, the position counts slots after it rather than free ones: the attempts under way
 * take the slots right after it in whatever order they land, so slots already taken there must not
 * push a later ticket further (where that happened, a third of a 1024-instance herd's first
 * attempts lost their race; docs/performance-history.md, run 9).
 */
final class HerdSpread {

    private HerdSpread() {}

    /**
     * The landing hint's data: the ticket of the last acquire attempt that finished (landed, or
     * found no free slot), as decimal text.
     */
    static byte[] hint(int ticket) {
        return Integer.toString(ticket).getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * The landing hint of an acquire that landed: its ticket and, after a colon, the slot it took,
     * where the attempts after it look for their slots.
     */
    static byte[] hint(int ticket, int slot) {
        return (ticket + ":" + slot).getBytes(StandardCharsets.US_ASCII);
    }

    /** The slot a landing hint names; empty when it names none or is not a hint. */
    static OptionalInt landedSlot(byte @Nullable [] hint) {
        long[] parsed = parse(hint);
        return parsed == null || parsed[1] < 0
                ? OptionalInt.empty()
                : OptionalInt.of((int) parsed[1]);
    }

    /**
     * The ticket a landing hint holds; empty when it holds none (cleared, never written) or
     * anything but a decimal int, since a hint carries no safety: it only moves a slot choice.
     */
    static OptionalInt landed(byte @Nullable [] hint) {
        long[] parsed = parse(hint);
        return parsed == null ? OptionalInt.empty() : OptionalInt.of((int) parsed[0]);
    }

    /**
     * A landing hint ({@code ticket} or {@code ticket:slot}) as {ticket, slot or -1}; null when it
     * is none.
     */
    private static long @Nullable [] parse(byte @Nullable [] hint) {
        if (hint == null || hint.length == 0 || hint.length > 23) {
            return null;
        }
        String text = new String(hint, StandardCharsets.US_ASCII);
        int colon = text.indexOf(':');
        try {
            int ticket = Integer.parseInt(colon < 0 ? text : text.substring(0, colon));
            int slot = colon < 0 ? -1 : Integer.parseInt(text.substring(colon + 1));
            if (colon >= 0 && slot < 0) {
                return null;
            }
            return new long[] {ticket, slot};
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /**
     * The position of an acquire's first attempt (among the free slots, lowest first; in slots from
     * the one after the hint's slot when the hint names one): the number of acquire attempts whose
     * tickets lie between the last finished one ({@code landed}) and this one, so that a herd whose
     * attempts start before any of them lands points at distinct slots at once. With no attempt in
     * between (acquires one after another) or no hint, 0: the lowest free slot.
     *
     * @param ticket the clock node's version after this attempt's clock write
     * @param landed the landing hint's ticket, if any
     * @param limit the namespace's limit: the position stays below it
     */
    static int firstPosition(int ticket, OptionalInt landed, int limit) {
        if (landed.isEmpty()) {
            return 0;
        }
        // int arithmetic: versions wrap, and so does the difference; a hint ahead of the ticket
        // (tampered, or written by a later attempt that landed first) counts as none
        int between = ticket - landed.getAsInt() - 1;
        return between <= 0 ? 0 : Math.min(between, limit - 1);
    }

    /**
     * The position among the free slots, lowest first, that an attempt with {@code ticket} tries
     * after its previous attempt had {@code previousTicket}.
     *
     * @param ticket the clock node's version after this attempt's clock write
     * @param previousTicket the same for the previous attempt of the same acquire
     * @param limit the namespace's limit: the modulus never exceeds it, so that a herd as large as
     *     the namespace still points at distinct slots inside it
     * @return a position from 0 (the lowest free slot) up to the estimate rounded up to a power of
     *     two (at most {@code limit}), minus one
     */
    static int position(int ticket, int previousTicket, int limit) {
        // int arithmetic: a node version wraps from 2^31 - 1 to -2^31, and so does the difference
        int passed = ticket - previousTicket;
        int contenders = Math.max(1, Math.min(passed, 1 << 20));
        int modulus = Integer.highestOneBit(contenders);
        if (modulus < contenders) {
            modulus <<= 1;
        }
        return Math.floorMod(ticket, Math.min(modulus, limit));
    }
}
