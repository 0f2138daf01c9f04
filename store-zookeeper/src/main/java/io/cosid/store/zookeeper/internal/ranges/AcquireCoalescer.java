package io.cosid.store.zookeeper.internal.ranges;

import io.cosid.store.Range;
import io.cosid.store.RangeExhaustedException;
import io.cosid.store.StoreException;
import io.cosid.store.StoreTimeoutException;
import io.cosid.store.spi.Deadline;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongConsumer;
import org.jspecify.annotations.Nullable;

/**
 * Coalesces concurrent {@code acquire} calls on one key inside one store: one compare-and-set for
 * all of them, split locally in arrival order.
 *
 * <p>Why: every acquire on a key is a conditional write on one node, and ZooKeeper commits writes
 * to a node one at a time; threads of one process racing each other would only turn each other's
 * writes into {@code BadVersion}s. Instead, callers queue, one of them holds the key's turn and
 * writes {@code next += sum of sizes} once, and every queued caller gets its own consecutive part
 * of that range. With one caller this is exactly one write, as before.
 *
 * <p>Callers never wait for the lock itself: the writer wakes each caller it answered, and after
 * its turn wakes the first caller still queued to take the next one, so a finished caller is not
 * held up behind a newcomer's write. Budgets stay per caller: a caller that runs out of time while
 * queued withdraws (nothing was written for it); one whose request is already being written gives
 * up with a timeout and its part becomes a gap, never a value handed out twice. When the writer's
 * own budget ends, the callers it carried queue again with theirs.
 */
final class AcquireCoalescer {

    /**
     * Writes one range for the key, as large as its {@link Demand} says before each send, with
     * everything that entails (compare-and-set, seats in the key's line: {@link RangeWrite}).
     */
    interface Writer {
        /** Returns the range written, or null when nobody waits any more (nothing was written). */
        @Nullable Range write(Demand demand, Deadline deadline);
    }

    /**
     * What a writer writes for: the callers that still wait. Settled before each send, so that a
     * caller that gave up since the last send is not written for, and a caller that queued since
     * rides along. Why taking a newcomer is safe: it queued before the send, so its call was under
     * way when the write landed, and a range from that write is one it could have got.
     */
    interface Demand {
        /** Before a write of any size: the values to write now; 0 when nobody waits any more. */
        long settle();

        /**
         * Before a write whose size is fixed (a copy of a write whose reply was lost): fills it
         * with the callers that still wait, as far as they fit; what stays unfilled is given up.
         */
        void fillExactly(long size);

        /**
         * Before a write of at most {@code limit} values: carries the callers that still wait as
         * far as they fit, handing the newest beyond it back to the queue (nothing was sent for
         * them); the values carried.
         */
        long fit(long limit);
    }

    private static final int QUEUED = 0;
    private static final int TAKEN = 1;
    private static final int WITHDRAWN = 2;
    private static final int GAVE_UP = 3;
    private static final int DELIVERED = 4;

    /**
     * One caller's request; its outcome is set once by the writer that took it, which then wakes
     * its caller.
     */
    private static final class Request {
        final long size;
        final Thread caller = Thread.currentThread();
        final AtomicInteger state = new AtomicInteger(QUEUED);
        volatile @Nullable Range range;
        volatile @Nullable StoreException failure;
        volatile boolean retry;

        Request(long size) {
            this.size = size;
        }

        boolean answered() {
            return range != null || failure != null || retry;
        }
    }

    /**
     * Longest a waiting caller sleeps before looking again (a safety net; wake-ups are explicit).
     */
    private static final long MAX_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

    private final Writer writer;
    private final LongConsumer givenUp;
    private final ReentrantLock turn = new ReentrantLock();
    private final ConcurrentLinkedDeque<Request> queue = new ConcurrentLinkedDeque<>();

    AcquireCoalescer(Writer writer) {
        this(writer, values -> {});
    }

    /**
     * @param writer writes one range for the key
     * @param givenUp told the size of each part written for a caller that had given up
     */
    AcquireCoalescer(Writer writer, LongConsumer givenUp) {
        this.writer = writer;
        this.givenUp = givenUp;
    }

    Range acquire(long size, Deadline deadline) {
        while (deadline.hasTimeLeft()) {
            Request mine = new Request(size);
            queue.add(mine);
            awaitAnswer(mine, deadline);
            if (mine.range != null) {
                return mine.range;
            }
            if (mine.failure != null) {
                throw mine.failure;
            }
            // retry: the writer that carried this request ran out of its own budget; queue again
            // with ours
        }
        throw deadline.expired(null);
    }

    /**
     * Either takes the turn and writes for everyone queued, or sleeps until the writer holding the
     * turn has answered this request or handed the turn on to it. Answered callers leave without
     * touching the lock.
     */
    private void awaitAnswer(Request mine, Deadline deadline) {
        while (!mine.answered()) {
            if (turn.tryLock()) {
                try {
                    if (!mine.answered()) {
                        writeQueued(mine, deadline);
                    }
                } finally {
                    turn.unlock();
                }
                handOn();
                continue;
            }
            long left = deadline.remainingNanos();
            if (left <= 0
                    || Thread.currentThread()
                            .isInterrupted()) { // the flag stays set for the caller
                giveUp(mine, deadline);
                return;
            }
            LockSupport.parkNanos(this, Math.min(left, MAX_PARK_NANOS));
        }
    }

    /**
     * After a turn: wakes the caller of the first request still queued, so that it takes the next
     * turn.
     */
    private void handOn() {
        for (Request r : queue) {
            if (r.state.get() == QUEUED) {
                LockSupport.unpark(r.caller);
                return;
            }
        }
    }

    /**
     * Out of time: withdraw if still queued; if a writer already has the request and has not
     * answered it, give it up (its part becomes a gap, which the writer counts); an answered
     * request is taken as answered.
     */
    private void giveUp(Request mine, Deadline deadline) {
        if (mine.state.compareAndSet(QUEUED, WITHDRAWN)
                || mine.state.compareAndSet(TAKEN, GAVE_UP)) {
            throw deadline.expired(null);
        }
    }

    /** The requests one writer carries, settled before each of its sends ({@link Demand}). */
    private final class Batch implements Demand {
        final List<Request> parts = new ArrayList<>();
        long total;

        @Override
        public long settle() {
            return fit(Long.MAX_VALUE);
        }

        @Override
        public void fillExactly(long size) {
            dropGivenUp();
            take(size);
        }

        @Override
        public long fit(long limit) {
            dropGivenUp();
            List<Request> back = new ArrayList<>();
            while (total > limit && !parts.isEmpty()) {
                Request r = parts.remove(parts.size() - 1);
                total -= r.size;
                if (r.state.compareAndSet(TAKEN, QUEUED)) {
                    back.add(r); // its caller waits on, queued again at the front
                }
            }
            for (Request r : back) {
                queue.offerFirst(r);
            }
            take(limit);
            return total;
        }

        /** Parts whose callers gave up before this send: nothing was written for them. */
        private void dropGivenUp() {
            if (parts.removeIf(r -> r.state.get() == GAVE_UP)) {
                total = parts.stream().mapToLong(r -> r.size).sum();
            }
        }

        /** Takes queued requests in order while the total stays within {@code limit}. */
        void take(long limit) {
            for (Request r; (r = queue.peek()) != null; ) {
                if (r.state.get() == QUEUED && r.size > limit - total) {
                    break; // the rest waits for the next send or turn
                }
                queue.poll();
                if (r.state.compareAndSet(QUEUED, TAKEN)) {
                    parts.add(r);
                    total += r.size;
                }
            }
        }
    }

    /** One request alone (a batch split after its sum did not fit). */
    private record Alone(Request request) implements Demand {
        @Override
        public long settle() {
            return request.state.get() == GAVE_UP ? 0 : request.size;
        }

        @Override
        public void fillExactly(long size) {}

        @Override
        public long fit(long limit) {
            return request.size <= limit ? settle() : 0;
        }
    }

    /**
     * Holding the turn: takes everything queued (this caller's request included) and writes it at
     * once; callers that queue while the write is retried ride along with it.
     */
    private void writeQueued(Request mine, Deadline deadline) {
        Batch carried = new Batch();
        carried.take(Long.MAX_VALUE);
        if (carried.parts.isEmpty()) {
            return;
        }
        List<Request> batch = carried.parts;
        try {
            Range whole = writer.write(carried, deadline);
            if (whole != null) {
                long start = whole.start();
                for (Request r : batch) {
                    r.range = new Range(whole.key(), start, start + r.size);
                    start += r.size;
                }
                if (whole.end() > start) {
                    givenUp.accept(whole.end() - start); // a turn's fixed size left unfilled
                }
            }
            deliver(batch);
            wake(batch, mine);
        } catch (RangeExhaustedException e) {
            writeOneByOne(batch, mine, deadline); // the sum does not fit; smaller ranges still may
            deliver(batch);
            wake(batch, mine);
        } catch (StoreTimeoutException e) {
            answerAll(batch, mine, e, true);
        } catch (StoreException e) {
            answerAll(batch, mine, e, false);
        } catch (RuntimeException | Error e) {
            answerAll(batch, mine, new StoreException(deadline.operation() + " failed", e), false);
            throw e;
        }
    }

    /**
     * Marks each answered request delivered; a request whose caller gave up first got a range
     * nobody will receive: counted, never handed to anyone else.
     */
    private void deliver(List<Request> batch) {
        for (Request r : batch) {
            if (r.answered()
                    && !r.state.compareAndSet(TAKEN, DELIVERED)
                    && r.state.get() == GAVE_UP
                    && r.range != null) {
                givenUp.accept(r.size);
            }
        }
    }

    private static void wake(List<Request> batch, Request mine) {
        for (Request r : batch) {
            if (r != mine) {
                LockSupport.unpark(r.caller);
            }
        }
    }

    private void writeOneByOne(List<Request> batch, Request mine, Deadline deadline) {
        for (Request r : batch) {
            try {
                r.range = writer.write(new Alone(r), deadline);
            } catch (StoreTimeoutException e) {
                answerAll(batch, mine, e, true);
                return;
            } catch (StoreException e) {
                r.failure = e;
            }
        }
    }

    /**
     * Ends every unanswered request of the batch with the writer's failure; after the writer's own
     * timeout the others queue again instead, with their own budgets.
     */
    private void answerAll(
            List<Request> batch, Request mine, StoreException failure, boolean othersRetry) {
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
        deliver(batch);
        wake(batch, mine);
    }
}
