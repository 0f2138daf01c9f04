package io.cosid.store.zookeeper.internal;

/**
 * Where among the lowest free slots an acquire that lost a race tries next (docs/contract.md,
 * "Choice order", under concurrency).
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
 */
final class HerdSpread {

    private HerdSpread() {}

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
