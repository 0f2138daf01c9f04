package io.cosid.store.zookeeper.internal.ranges;

import io.cosid.store.StoreCorruptedException;
import io.cosid.store.StoreException;
import io.cosid.store.zookeeper.internal.wire.ConditionalWrite;
import io.cosid.store.zookeeper.internal.wire.WriteOutcome;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * The values (IDs) this store's range writes may have skipped, by cause: the unit of the gaps that
 * {@code HistoryChecker} counts between the ranges of a key.
 *
 * <ul>
 *   <li><b>Unknown outcome</b>: the values of range writes whose outcome was never learned. A write
 *       whose reply was lost is sent again as it was until one copy is answered ({@link
 *       ConditionalWrite#sendUntilAnswered}); it is counted here when no copy landed before the
 *       budget or the retries ended, or when a copy failed because something wrote first, which may
 *       have been the first send. If it landed, its values are skipped. An upper bound: some of
 *       them did not land, and a write whose time ran out just before it was sent is counted too.
 *   <li><b>Given up</b>: in writes that landed, the values of coalesced requests whose caller ran
 *       out of time while the write carrying them was in flight, the part of a range of fixed size
 *       (a seat's, served by another store's write, or a copy of a lost write) that no caller still
 *       waiting could fill, and a seat's range whose writer left after a write served it. A caller
 *       that gives up between two sends is not written for ({@link AcquireCoalescer.Demand}).
 *       Exact.
 * </ul>
 *
 * <p>Also the values of the range writes in flight now (sent, not yet answered or given up on): a
 * fault's waste is measured against the writes it caught in flight.
 */
@Singleton
public final class RangeWaste {

    private final LongAdder unknownOutcome = new LongAdder();
    private final LongAdder givenUp = new LongAdder();
    private final LongAdder inFlight = new LongAdder();

    @Inject
    RangeWaste() {}

    void givenUp(long values) {
        givenUp.add(values);
    }

    /**
     * Sends a range write of {@code values}; if its outcome is unknown (the reply lost, or the time
     * run out around the send) its values are counted as possibly skipped.
     */
    WriteOutcome counted(long values, Supplier<WriteOutcome> send) {
        inFlight.add(values);
        try {
            WriteOutcome outcome = send.get();
            if (outcome.kind() == WriteOutcome.Kind.UNKNOWN) {
                unknownOutcome.add(values);
            }
            return outcome;
        } catch (StoreCorruptedException e) {
            throw e; // refused, nothing sent
        } catch (StoreException e) {
            unknownOutcome.add(values);
            throw e;
        } finally {
            inFlight.add(-values);
        }
    }

    /** Values of the range writes in flight now. */
    public long inFlightValues() {
        return inFlight.sum();
    }

    /** Values of range writes of unknown outcome (an upper bound of what they skipped). */
    public long unknownOutcomeValues() {
        return unknownOutcome.sum();
    }

    /** Values of landed coalesced writes whose callers had given up. */
    public long givenUpValues() {
        return givenUp.sum();
    }
}
