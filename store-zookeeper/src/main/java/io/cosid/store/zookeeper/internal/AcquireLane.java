package io.cosid.store.zookeeper.internal;

import io.cosid.store.Range;
import io.cosid.store.RangeExhaustedException;
import io.cosid.store.StoreException;
import io.cosid.store.StoreTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Coalesces concurrent {@code acquire} calls on one key inside one store: one compare-and-set for all of
 * them, split locally in arrival order.
 *
 * <p>Why: every acquire on a key is a conditional write on one node, and ZooKeeper commits writes to a node
 * one at a time; threads of one process racing each other would only turn each other's writes into
 * {@code BadVersion}s. Instead, callers queue, one of them holds the key's turn and writes
 * {@code next += sum of sizes} once, and every queued caller gets its own consecutive part of that range.
 * With one caller this is exactly one write, as before.
 *
 * <p>Budgets stay per caller: a caller that runs out of time while queued withdraws (nothing was written for
 * it); one whose request is already being written gives up with a timeout and its part becomes a gap, never a
 * value handed out twice. When the writer's own budget ends, the callers it carried queue again with theirs.
 */
final class AcquireLane {

    /** Writes one range of {@code size} for the key, with everything that entails (CAS loop, backoff). */
    interface Writer {
        Range write(long size, Deadline deadline);
    }

    private static final int QUEUED = 0;
    private static final int TAKEN = 1;
    private static final int WITHDRAWN = 2;

    /** One caller's request; its outcome is set once by the writer that took it. */
    private static final class Request {
        final long size;
        final AtomicInteger state = new AtomicInteger(QUEUED);
        volatile Range range;
        volatile StoreException failure;
        volatile boolean retry;

        Request(long size) {
            this.size = size;
        }

        boolean answered() {
            return range != null || failure != null || retry;
        }
    }

    private final Writer writer;
    private final ReentrantLock turn = new ReentrantLock();
    private final ConcurrentLinkedQueue<Request> queue = new ConcurrentLinkedQueue<>();

    AcquireLane(Writer writer) {
        this.writer = writer;
    }

    Range acquire(long size, Deadline deadline) {
        while (true) {
            Request mine = new Request(size);
            queue.add(mine);
            awaitTurnOrAnswer(mine, deadline);
            if (mine.range != null) {
                return mine.range;
            }
            if (mine.failure != null) {
                throw mine.failure;
            }
            // retry: the writer that carried this request ran out of its own budget; queue again with ours
        }
    }

    private void awaitTurnOrAnswer(Request mine, Deadline deadline) {
        boolean locked;
        try {
            locked = turn.tryLock(Math.max(0, deadline.remainingNanos()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            giveUp(mine, deadline, e);
            return;
        }
        if (!locked) {
            giveUp(mine, deadline, null);
            return;
        }
        try {
            if (!mine.answered()) {
                writeQueued(mine, deadline);
            }
        } finally {
            turn.unlock();
        }
    }

    /** Out of time without the turn: withdraw if still queued; if a writer has it, its part becomes a gap. */
    private void giveUp(Request mine, Deadline deadline, Throwable cause) {
        mine.state.compareAndSet(QUEUED, WITHDRAWN);
        if (!mine.answered()) {
            throw deadline.expired(cause);
        }
    }

    /** Holding the turn: takes everything queued (this caller's request included) and writes it at once. */
    private void writeQueued(Request mine, Deadline deadline) {
        List<Request> batch = new ArrayList<>();
        long total = 0;
        for (Request r; (r = queue.peek()) != null; ) {
            if (r.state.get() == QUEUED && total > Long.MAX_VALUE - r.size) {
                break; // the rest waits for the next turn
            }
            queue.poll();
            if (r.state.compareAndSet(QUEUED, TAKEN)) {
                batch.add(r);
                total += r.size;
            }
        }
        if (batch.isEmpty()) {
            return;
        }
        try {
            Range whole = writer.write(total, deadline);
            long start = whole.start();
            for (Request r : batch) {
                r.range = new Range(whole.key(), start, start + r.size);
                start += r.size;
            }
        } catch (RangeExhaustedException e) {
            writeOneByOne(batch, mine, deadline); // the sum does not fit; smaller ranges still may
        } catch (StoreTimeoutException e) {
            answerAll(batch, mine, e, true);
        } catch (StoreException e) {
            answerAll(batch, mine, e, false);
        } catch (RuntimeException | Error e) {
            answerAll(batch, mine, new StoreException(deadline.operation() + " failed", e), false);
            throw e;
        }
    }

    private void writeOneByOne(List<Request> batch, Request mine, Deadline deadline) {
        for (Request r : batch) {
            try {
                r.range = writer.write(r.size, deadline);
            } catch (StoreTimeoutException e) {
                answerAll(batch, mine, e, true);
                return;
            } catch (StoreException e) {
                r.failure = e;
            }
        }
    }

    /**
     * Ends every unanswered request of the batch with the writer's failure; after the writer's own timeout the
     * others queue again instead, with their own budgets.
     */
    private static void answerAll(List<Request> batch, Request mine, StoreException failure, boolean othersRetry) {
        for (Request r : batch) {
            if (r.answered()) {
                continue;
            }
            if (othersRetry && r != mine) {
                r.retry = true;
            } else {
                r.failure = failure;
            }
        }
    }
}
