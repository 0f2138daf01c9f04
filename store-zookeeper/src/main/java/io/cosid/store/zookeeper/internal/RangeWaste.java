package io.cosid.store.zookeeper.internal;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.util.concurrent.atomic.LongAdder;

/**
 * The values (IDs) this store's range writes may have skipped, by cause: the unit of the gaps that
 * {@code HistoryChecker} counts between the ranges of a key.
 *
 * <ul>
 *   <li><b>Unknown outcome</b>: the values of range writes whose outcome was never learned (the
 *       connection was lost, or the time ran out after the write was sent). Such a write is never
 *       sent again; if it landed, its values are skipped. An upper bound: some of them did not
 *       land, and a write whose time ran out just before it was sent is counted too.
 *   <li><b>Given up</b>: the values of coalesced requests whose caller ran out of time while the
 *       writer already carried them, in writes that landed. Exact.
 * </ul>
 */
@Singleton
final class RangeWaste {

    private final LongAdder unknownOutcome = new LongAdder();
    private final LongAdder givenUp = new LongAdder();

    @Inject
    RangeWaste() {}

    void unknownOutcome(long values) {
        unknownOutcome.add(values);
    }

    void givenUp(long values) {
        givenUp.add(values);
    }

    /** Values of range writes of unknown outcome (an upper bound of what they skipped). */
    long unknownOutcomeValues() {
        return unknownOutcome.sum();
    }

    /** Values of landed coalesced writes whose callers had given up. */
    long givenUpValues() {
        return givenUp.sum();
    }
}
